import type { IncomingMessage, ServerResponse } from 'node:http'
import { ChannelStatus } from '@one-api/contracts'
import {
  type ClientApi,
  clientFacingError,
  getAdaptor,
  type RelayMode,
  type RelayRequest,
  type UpstreamError,
  withSystemPrompt,
} from '@one-api/providers'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import { ChargesPending, type Reservation } from '../../billing/ledger/ledger.ts'
import { resolvePricing } from '../../billing/pricing/resolve-pricing.ts'
import { type CostInput, estimatePromptTokens, reservationFor } from '../../billing/request-cost.ts'
import { findChannelById } from '../../db/repositories/channels-repository.ts'
import { withinTime } from '../../platform/time-limit.ts'
import { billingUnavailable, chargesPending, RelayError } from '../auth/relay-error.ts'
import { authenticateRelay, checkModelAllowed } from '../auth/token-auth.ts'
import { sendAnswer, sendRelayErrorAnswer } from '../front/client-response.ts'
import type { RelayServices } from '../relay-services.ts'
import { type RoutedChannel, toRoutedChannel } from '../routing/routed-channel.ts'
import { clientAuthorization, errorBodyFor, readMessagesBody } from './client-api.ts'
import { consumeLog } from './consume-log.ts'
import { runAttempt } from './relay-attempt.ts'
import { elapsedNanos, type RelayState } from './relay-state.ts'
import { readRelayBody } from './request-body.ts'
import { checkProviderLimits } from './request-limits.ts'
import { UPSTREAM_REQUEST_ID } from './upstream-exchange.ts'

/** How long a failed attempt waits for its refund before the next channel is tried (see serve). */
const REFUND_WAIT_MS = 2_000

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
}

/**
 * The relay flow: token auth, body facts, then up to 1 + RetryTimes attempts on different channels
 * (highest priority tier first, weighted inside a tier, never the same channel twice). Each attempt
 * reserves quota first and refunds it if the attempt fails; a served request is settled exactly once.
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
      const authorization = clientAuthorization(request.headers, clientApi)
      const authenticated = authenticateRelay(services.cache, authorization, input.clientIp)
      const caller = authenticated instanceof Promise ? await authenticated : authenticated
      const contentType = request.headers['content-type'] ?? ''
      const messages = clientApi === 'anthropic' ? readMessagesBody(input.body, contentType) : undefined
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
      services.metrics.recordRequest('none', 'none', input.mode, status, seconds, 0)
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

/** What serve reports to the process's log. */
interface ServeHooks {
  warnUnsupported(channel: RoutedChannel): void
  /** A reservation, refund or settlement the database refused (its connection dropped, say). */
  ledgerFailed(error: unknown, what: string, requestId: string): void
  /** The upstream reported more tokens than the request allows: they were cut down (usage-bounds.ts). */
  usageClamped(note: string, channel: RoutedChannel, requestId: string): void
}

async function serve(
  context: AppContext,
  services: RelayServices,
  state: RelayState,
  hooks: ServeHooks,
): Promise<void> {
  const { options } = context
  const { caller, facts } = state
  // A refund that fails (the database unreachable a moment) must not cost the client its answer:
  // the next channel is still tried. The reservation then stays taken, and the log says so. While
  // the database is unreachable a refund is tried again for up to a minute (write-retries.ts): the
  // next channel, or the client's error answer, waits for it REFUND_WAIT_MS at most, and it goes on
  // in the background.
  const refund = async (reservation: Reservation) => {
    const refunding = services.ledger.refund(reservation).catch((error: unknown) => {
      hooks.ledgerFailed(error, 'refunding a reservation', state.requestId)
    })
    await withinTime(refunding, REFUND_WAIT_MS)
  }
  const group = caller.user.group
  const excluded = new Set<number>()
  const attempts = caller.pinnedChannelId ? 1 : 1 + Math.max(0, options.number('RetryTimes'))
  let lastError: UpstreamError | undefined
  /** The channel whose failure lastError is: the final answer is counted under it. */
  let lastErrorChannel = 0
  let unpriced: string | undefined
  /** The channel whose retryable failure the next attempt, if one is made, moves away from. */
  let movingFrom: { channel: string; model: string } | undefined
  let unsupported: RoutedChannel | undefined
  // A channel this gateway cannot serve (no adaptor for its type, no price for its model) is
  // skipped without using up one of the request's attempts.
  for (let attempt = 0; attempt < attempts; ) {
    if (state.clientGone) break
    if (caller.pinnedChannelId && excluded.has(caller.pinnedChannelId)) break
    const channel = caller.pinnedChannelId
      ? (services.router.channel(caller.pinnedChannelId) ??
        (await pinnedChannel(context, caller.pinnedChannelId)))
      : services.router.select(group, facts.model, excluded)
    if (!channel) break
    excluded.add(channel.id)
    const adaptor = getAdaptor(channel.type, state.clientApi)
    if (!adaptor) {
      unsupported = channel
      hooks.warnUnsupported(channel)
      continue
    }
    const mappedModel = channel.modelMapping[facts.model] || facts.model
    const pricing = resolvePricing(mappedModel, channel.type, group, {
      modelRatios: options.ratios('ModelRatio'),
      completionRatios: options.ratios('CompletionRatio'),
      groupRatios: options.ratios('GroupRatio'),
    })
    if (!pricing) {
      unpriced = mappedModel
      continue
    }
    attempt += 1
    checkProviderLimits(state.mode, mappedModel, facts.json)
    const cost: CostInput = {
      mode: state.mode,
      model: mappedModel,
      // What the upstream is sent, the channel's forced system prompt included, is what a local
      // count must count.
      json: promptAsSent(state.mode, facts.json, channel.systemPrompt),
      pricing,
      maxTokens: facts.maxTokens,
      approximate: options.boolean('ApproximateTokenEnabled'),
    }
    const promptEstimate = estimatePromptTokens(cost)
    const amount = reservationFor(cost, promptEstimate, options.number('PreConsumedQuota'))
    let reserved: Awaited<ReturnType<typeof services.ledger.reserve>>
    try {
      reserved = await services.ledger.reserve(caller.token.id, caller.user.id, amount)
    } catch (error) {
      if (error instanceof ChargesPending) throw chargesPending()
      hooks.ledgerFailed(error, 'reserving quota', state.requestId)
      throw billingUnavailable()
    }
    if (!reserved.ok) {
      throw new RelayError(
        403,
        reserved.reason === 'token'
          ? `The remaining quota of token ${caller.token.name} is not enough for this request (needs ${amount})`
          : `Your account's remaining quota is not enough for this request (needs ${amount})`,
        reserved.reason === 'token' ? 'insufficient_token_quota' : 'insufficient_user_quota',
      )
    }
    // Nobody is left to answer: no upstream call is made for it.
    if (state.clientGone) {
      await refund(reserved.reservation)
      break
    }
    // Counted once another channel is actually called (not when none was left, the reservation
    // was refused or the client left).
    if (movingFrom) services.metrics.recordRetry(movingFrom.channel, movingFrom.model)
    movingFrom = undefined
    const relayRequest: RelayRequest = {
      mode: state.mode,
      clientApi: state.clientApi,
      native: state.native,
      receivedAt: Math.floor(Date.now() / 1000),
      path: state.path,
      body: state.body,
      json: facts.json,
      requestedModel: facts.model,
      mappedModel,
      stream: facts.stream,
      clientWantsUsage: facts.clientWantsUsage,
      systemPrompt: channel.systemPrompt || undefined,
      contentType: state.contentType,
      accept: state.accept,
    }
    const input = {
      state,
      channel,
      adaptor,
      relayRequest,
      cost,
      pricing,
      promptEstimate,
      reservation: reserved.reservation,
    }
    let outcome: Awaited<ReturnType<typeof runAttempt>>
    try {
      outcome = await runAttempt(services.upstream, input)
    } catch (error) {
      // An unexpected failure must not keep the reservation: give it back before reporting.
      await refund(reserved.reservation)
      throw error
    }
    const labels = { channel: String(channel.id), model: facts.model }
    if (outcome.kind === 'served') {
      state.answeredAt = process.hrtime.bigint()
      services.router.reportSuccess(channel.id)
      // Counted now: a database slow to store the charge (or out of reach) must not hide it.
      recordMetrics(services, state, labels, state.response.statusCode)
      const { notes, charge, streamed } = outcome
      if (charge.clamped) {
        hooks.usageClamped(charge.clamped, channel, state.requestId)
        notes.push(charge.clamped)
      }
      const logged = options.boolean('LogConsumeEnabled')
      const log = () => consumeLog(state, channel, pricing, mappedModel, charge, notes, streamed)
      try {
        // The charge and its log are stored together before the answer ends (see AttemptOutcome).
        await services.ledger.settle(
          reserved.reservation,
          charge.quota,
          channel.id,
          logged ? log() : undefined,
        )
      } catch (error) {
        // The client was served: its log is written all the same, saying the charge is missing
        // (its reservation stays taken), so the administrator can see and settle it.
        hooks.ledgerFailed(error, 'settling a served request', state.requestId)
        notes.push(
          `the charge could not be recorded (${(error as Error).message}); the reservation stays taken`,
        )
        if (logged) services.logWriter.write(log())
      } finally {
        outcome.finish()
      }
      return
    }
    await refund(reserved.reservation)
    lastError = outcome.error
    lastErrorChannel = channel.id
    if (coolsDown(outcome.error)) services.router.reportFailure(channel.id)
    // A failed attempt counts against its channel's error rate, unless the client left first.
    if (!state.clientGone && options.boolean('LogConsumeEnabled')) {
      services.usageErrors.record(caller.user.id, mappedModel, channel.id)
    }
    context.channelHealth?.reportFailure(channel, outcome.error)
    if (state.clientGone || !outcome.error.retryable) break
    movingFrom = labels
  }
  if (state.clientGone) {
    // Counted as nginx counts a client that closed its request (499), since nothing was served:
    // under the channel it was waiting for, or 'none' when it left before any was tried.
    const channel = lastErrorChannel ? String(lastErrorChannel) : 'none'
    recordMetrics(services, state, { channel, model: facts.model }, CLIENT_CLOSED_REQUEST)
    return
  }
  if (lastError) {
    const answer = clientFacingError(lastError)
    // Counted under the channel that failed it last (under 'none', a channel's errors showed only
    // as retries, and not at all without RetryTimes).
    recordMetrics(services, state, { channel: String(lastErrorChannel), model: facts.model }, answer.status)
    const body = errorBodyFor(state.clientApi, answer.status, answer, state.requestId)
    const headers: Record<string, string> = {}
    // A rate limit the upstream timed is passed on, so clients back off as long as it asked.
    if (answer.status === 429 && answer.retryAfterSeconds !== undefined) {
      headers['retry-after'] = String(answer.retryAfterSeconds)
    }
    if (answer.upstreamRequestId !== undefined) headers[UPSTREAM_REQUEST_ID] = answer.upstreamRequestId
    sendAnswer(state.response, state.requestId, answer.status, 'application/json', body, headers)
    return
  }
  if (unpriced) {
    throw new RelayError(
      400,
      `The model ${unpriced} has no price: an administrator must set its ratio (ModelRatio) before it can be used`,
      'model_price_not_set',
      'invalid_request_error',
    )
  }
  if (unsupported) {
    throw new RelayError(
      503,
      `No available channel for model ${facts.model} in group ${group}: its channels are of a type this gateway does not serve`,
      'no_available_channel',
    )
  }
  throw new RelayError(
    503,
    `No available channel for model ${facts.model} in group ${group}`,
    'no_available_channel',
  )
}

const CLIENT_CLOSED_REQUEST = 499

/**
 * Whether a failure counts towards cooling the channel down: the channel itself is failing (5xx,
 * timeouts, connection errors, rate limits) or its key or account is refused. Not a 403 for one
 * model its key may not use, which is retried elsewhere but says nothing of its other models: a
 * client asking for such a model must not move everyone's traffic off the channel.
 */
function coolsDown(error: UpstreamError): boolean {
  if (!error.retryable) return false
  return error.disableChannel || error.status >= 500 || error.status === 408 || error.status === 429
}

/** A pinned channel the routing index does not hold: read it to say why, or to use it anyway. */
async function pinnedChannel(context: AppContext, id: number): Promise<RoutedChannel> {
  const row = await findChannelById(context.db, id)
  if (!row)
    throw new RelayError(400, `Channel #${id} does not exist`, 'invalid_channel_id', 'invalid_request_error')
  if (row.status !== ChannelStatus.enabled)
    throw new RelayError(403, `Channel #${id} is disabled`, 'channel_disabled')
  return toRoutedChannel(row)
}

function recordMetrics(
  services: RelayServices,
  state: RelayState,
  labels: { channel: string; model: string },
  status: number,
) {
  const total = elapsedNanos(state)
  services.metrics.recordRequest(
    labels.channel,
    labels.model,
    state.mode,
    status,
    Number(total) / 1e9,
    Number(state.upstreamNanos) / 1e9,
  )
}

/** The request's JSON as the upstream gets it: a chat's messages with the channel's system prompt. */
function promptAsSent(
  mode: RelayMode,
  json: Record<string, unknown> | undefined,
  systemPrompt: string,
): Record<string, unknown> | undefined {
  if (mode !== 'chat' || !systemPrompt || !json) return json
  return { ...json, messages: withSystemPrompt(json.messages, systemPrompt) }
}
