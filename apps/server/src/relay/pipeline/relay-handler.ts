import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ClientApi, RelayMode } from '@one-api/providers'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import { RelayError } from '../auth/relay-error.ts'
import { authenticateRelay, checkModelAllowed } from '../auth/token-auth.ts'
import { sendRelayErrorAnswer } from '../front/client-response.ts'
import type { RelayServices } from '../relay-services.ts'
import { clientAuthorization, type GeminiCall, readClientBody } from './client-api.ts'
import type { RelayState } from './relay-state.ts'
import { readRelayBody } from './request-body.ts'
import { serve } from './serve.ts'
import type { ServeHooks } from './settle.ts'

/** One relay request as the front read it. */
export interface RelayInput {
  request: IncomingMessage
  response: ServerResponse
  requestId: string
  startedAt: bigint
  mode: RelayMode
  /** The path and query the upstream is asked on: the client's own, but /v1/embeddings for engines. */
  path: string
  /** The model named in the path (`/v1/engines/:model/embeddings`). */
  pathModel?: string
  body: Buffer
  clientIp: string
  /** The API the client called (its request, answer and error formats); OpenAI's when absent. */
  clientApi?: ClientApi
  /** A Gemini client's model and stream framing, from its path. */
  gemini?: GeminiCall
}

/**
 * The relay's entry: token auth and the body's facts, then serve.ts's attempts on up to
 * 1 + RetryTimes channels (highest priority tier first, weighted inside a tier, never the same
 * channel twice). A request refused before any channel answered is answered and counted here.
 */
export function createRelayHandler(context: AppContext, services: RelayServices, logger: FastifyBaseLogger) {
  // Once per channel and process: the administrator learns why a channel never serves.
  const warned = new Set<number>()
  const hooks: ServeHooks = {
    warnUnsupported(channel) {
      if (warned.has(channel.id)) return
      warned.add(channel.id)
      logger.warn(
        { channelId: channel.id, channelType: channel.type },
        'channel skipped: the relay has no adaptor for its type yet',
      )
    },
    ledgerFailed(error, what, requestId) {
      logger.error({ err: error, reqId: requestId }, `${what} failed: the balances may not show it`)
    },
    usageClamped(note, channel, requestId) {
      logger.warn({ reqId: requestId, channelId: channel.id }, note)
    },
  }
  return async function relay(input: RelayInput): Promise<void> {
    const { request, response, requestId } = input
    const clientApi = input.clientApi ?? 'openai'
    try {
      const authorization = clientAuthorization(request.headers, clientApi, request.url)
      const authenticated = authenticateRelay(services.cache, authorization, input.clientIp)
      const caller = authenticated instanceof Promise ? await authenticated : authenticated
      const contentType = request.headers['content-type'] ?? ''
      const messages = readClientBody(clientApi, input.body, contentType, input.gemini)
      const facts = messages?.facts ?? readRelayBody(input.mode, input.body, contentType, input.pathModel)
      checkModelAllowed(caller.token, facts.model)
      const state: RelayState = {
        requestId,
        startedAt: input.startedAt,
        mode: input.mode,
        path: input.path,
        clientIp: input.clientIp,
        caller,
        facts,
        body: messages?.body ?? input.body,
        clientApi,
        native: messages?.native,
        contentType,
        accept: request.headers.accept,
        response,
        upstreamNanos: 0n,
        answeredAt: 0n,
        clientGone: false,
        cutByShutdown: false,
      }
      response.on('close', () => {
        if (response.writableFinished) return
        state.clientGone = true
        state.cutByShutdown = services.connectionsCut
        state.upstreamCall?.cancel(new Error('the client closed the connection'))
      })
      // A client that left while its body was read or its token looked up closed before the
      // listener above: it is gone too (its request used to run upstream to the end, billed whole).
      if (response.destroyed || !response.socket || response.socket.destroyed) state.clientGone = true
      await serve(context, services, state, hooks)
    } catch (error) {
      // Refused before any channel answered (auth, quota, bad body, no channel): counted under
      // channel and model "none", since the model named may be anything a client sends.
      const status = error instanceof RelayError ? error.status : 500
      const seconds = Number(process.hrtime.bigint() - input.startedAt) / 1e9
      services.metrics.recordRefused(input.mode, status, seconds)
      if (error instanceof RelayError) {
        sendRelayErrorAnswer(response, requestId, error, clientApi)
        return
      }
      logger.error({ err: error, reqId: requestId }, 'relay failed')
      if (!response.headersSent) {
        sendRelayErrorAnswer(
          response,
          requestId,
          new RelayError(500, 'Internal error of the gateway', 'internal_error'),
          clientApi,
        )
      } else {
        response.destroy()
      }
    }
  }
}
