import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ClientApi, RelayMode } from '@one-api/providers'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import { clientIpResolver } from '../../http/client-ip.ts'
import { generateRequestId } from '../../http/request-id.ts'
import { withinTime } from '../../platform/time-limit.ts'
import { RelayError, shuttingDown } from '../auth/relay-error.ts'
import { createRelayHandler } from '../pipeline/relay-handler.ts'
import type { RelayServices } from '../relay-services.ts'
import { decodeRequestBody, isEncoded } from './body-encoding.ts'
import { sendRelayErrorAnswer } from './client-response.ts'
import { COUNT_TOKENS_PATH, createCountTokensHandler } from './count-tokens.ts'
import { matchGeminiPath, redactKeyParameter } from './gemini-path.ts'
import { readRequestBody } from './request-reader.ts'

// Audio uploads reach 25 MB and vision requests carry base64 images.
export const RELAY_BODY_LIMIT = 64 * 1024 * 1024

/** The relayed endpoints (POST); every other /v1 route is served by Fastify (relay-routes.ts). */
const RELAYED = new Map<string, RelayMode>([
  ['/v1/chat/completions', 'chat'],
  ['/v1/completions', 'completions'],
  ['/v1/embeddings', 'embeddings'],
  ['/v1/moderations', 'moderations'],
  ['/v1/images/generations', 'images'],
  ['/v1/audio/speech', 'audio-speech'],
  ['/v1/audio/transcriptions', 'audio-transcription'],
  ['/v1/audio/translations', 'audio-translation'],
  // The rerank API of Jina, Cohere and vLLM ({model, query, documents, top_n, return_documents}).
  ['/v1/rerank', 'rerank'],
  // Anthropic's Messages API, read as a chat completion (pipeline/client-api.ts).
  ['/v1/messages', 'chat'],
  // OpenAI's Responses API, read as a chat completion too.
  ['/v1/responses', 'chat'],
])
/** The relayed endpoints of another API than OpenAI's chat and its kin. */
const CLIENT_APIS = new Map<string, ClientApi>([
  ['/v1/messages', 'anthropic'],
  ['/v1/responses', 'responses'],
])
const ENGINE_EMBEDDINGS = /^\/v1\/engines\/([^/]+)\/embeddings$/

export interface RelayFront {
  /** Serves the request when it is a relayed endpoint; false leaves it to Fastify. */
  handle(request: IncomingMessage, response: ServerResponse): boolean
  /** The server is shutting down: new relay requests are refused with 503. */
  close(): void
  /**
   * Resolves once every relay request in flight has finished its work, billing and log included
   * (at the latest after `timeoutMs`): the ledger and the log writer must not close before.
   */
  drained(timeoutMs: number): Promise<boolean>
}

/**
 * The relay's front door: matches the relayed POST routes by a map lookup, reads the body as the
 * client's bytes (so it can be passed through unchanged) and hands it to the relay pipeline.
 */
export function createRelayFront(
  context: AppContext,
  services: RelayServices,
  logger: FastifyBaseLogger,
): RelayFront {
  const clientIp = clientIpResolver(context.config.TRUST_PROXY)
  const relay = createRelayHandler(context, services, logger)
  const countTokens = createCountTokensHandler(services, clientIp)
  // One line per relay request, as Fastify writes for its own routes, when the level asks for it.
  const logRequests = ['trace', 'debug', 'info'].includes(String(logger.level))
  let closing = false
  const inFlight = new Set<Promise<void>>()
  return {
    handle(request, response) {
      if (request.method !== 'POST') return false
      const url = request.url ?? '/'
      const query = url.indexOf('?')
      const path = query === -1 ? url : url.slice(0, query)
      if (path === COUNT_TOKENS_PATH) {
        countTokens(request, response, 'anthropic')
        return true
      }
      const gemini = matchGeminiPath(path, query === -1 ? '' : url.slice(query + 1))
      if (gemini?.action === 'countTokens') {
        countTokens(request, response, 'gemini', gemini.model)
        return true
      }
      let mode = gemini ? 'chat' : RELAYED.get(path)
      let pathModel: string | undefined
      // The path the upstream is asked on: the request's own, but for the retired engines API.
      let upstreamPath = url
      // `/v1/embeddings/` is `/v1/embeddings` (one-api's router redirects it there; it was a 501).
      if (!mode && path.length > 1 && path.endsWith('/')) {
        mode = RELAYED.get(path.slice(0, -1))
        if (mode) upstreamPath = path.slice(0, -1) + (query === -1 ? '' : url.slice(query))
      }
      if (!mode) {
        const engine = ENGINE_EMBEDDINGS.exec(path)
        if (!engine) return false
        mode = 'embeddings'
        pathModel = safeDecode(engine[1]!)
        // Providers serve /v1/embeddings with the model in the body (OpenAI retired the engines
        // paths), and the body's model is the one routed, mapped and billed.
        upstreamPath = `/v1/embeddings${query === -1 ? '' : url.slice(query)}`
      }
      // A Messages, Responses or Gemini request reaches chat channels as the chat completion it is read as.
      const clientApi = gemini ? 'gemini' : CLIENT_APIS.get(path)
      if (clientApi) upstreamPath = '/v1/chat/completions'
      const startedAt = process.hrtime.bigint()
      const requestId = generateRequestId()
      if (logRequests) logCompletion(logger, request, response, requestId, startedAt)
      if (closing) {
        response.shouldKeepAlive = false
        request.resume()
        sendRelayErrorAnswer(response, requestId, shuttingDown())
        return true
      }
      readRequestBody(request, RELAY_BODY_LIMIT, (body) => {
        if (body === 'too-large') {
          // The rest of an oversized upload is not read: the connection closes after the answer.
          response.shouldKeepAlive = false
          sendRelayErrorAnswer(
            response,
            requestId,
            new RelayError(
              413,
              'The request body is too large',
              'request_too_large',
              'invalid_request_error',
            ),
          )
          return
        }
        const serve = (decoded: Buffer) => {
          // relay() never rejects: every failure is answered inside it.
          const served = relay({
            request,
            response,
            requestId,
            startedAt,
            mode,
            path: upstreamPath,
            pathModel,
            body: decoded,
            clientIp: clientIp(request),
            clientApi,
            gemini,
          })
          inFlight.add(served)
          void served.finally(() => inFlight.delete(served))
        }
        const encoding = request.headers['content-encoding']
        if (!isEncoded(encoding)) return serve(body)
        decodeRequestBody(body, encoding, RELAY_BODY_LIMIT, (decoded) => {
          if (decoded instanceof RelayError) sendRelayErrorAnswer(response, requestId, decoded)
          else serve(decoded)
        })
      })
      return true
    },
    close() {
      closing = true
    },
    async drained(timeoutMs) {
      return (await withinTime(Promise.all([...inFlight]), timeoutMs)).finished
    },
  }
}

function logCompletion(
  logger: FastifyBaseLogger,
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  startedAt: bigint,
): void {
  response.once('close', () => {
    logger.info(
      {
        reqId: requestId,
        req: {
          method: request.method,
          url: redactKeyParameter(request.url ?? ''),
          remoteAddress: request.socket.remoteAddress,
        },
        res: { statusCode: response.statusCode },
        responseTime: Number(process.hrtime.bigint() - startedAt) / 1e6,
        completed: response.writableFinished,
      },
      'relay request completed',
    )
  })
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}
