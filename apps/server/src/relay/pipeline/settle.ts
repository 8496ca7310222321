import type { UpstreamError } from '@one-api/providers'
import type { AppContext } from '../../app-context.ts'
import type { RelayServices } from '../relay-services.ts'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import type { AttemptInput, AttemptOutcome, Tries } from './attempt-types.ts'
import { consumeLog } from './consume-log.ts'
import { elapsedNanos, type RelayState } from './relay-state.ts'

/** What serving a request reports to the process's log. */
export interface ServeHooks {
  warnUnsupported(channel: RoutedChannel): void
  /** A reservation, refund or settlement the database refused (its connection dropped, say). */
  ledgerFailed(error: unknown, what: string, requestId: string): void
  /** The upstream reported more tokens than the request allows: they were cut down (usage-bounds.ts). */
  usageClamped(note: string, channel: RoutedChannel, requestId: string): void
}

type Served = Extract<AttemptOutcome, { kind: 'served' }>

/**
 * Bills a served attempt: its charge and its consume log are stored together before the answer
 * ends (see AttemptOutcome), then the answer is finished.
 */
export async function settleServed(
  context: AppContext,
  services: RelayServices,
  input: AttemptInput,
  outcome: Served,
  hooks: ServeHooks,
): Promise<void> {
  const { state, channel, pricing, reservation } = input
  state.answeredAt = process.hrtime.bigint()
  services.router.reportSuccess(channel.id)
  // Counted now: a database slow to store the charge (or out of reach) must not hide it.
  recordRelayMetrics(services, state, String(channel.id), state.response.statusCode)
  const { notes, charge, streamed } = outcome
  if (charge.clamped) {
    hooks.usageClamped(charge.clamped, channel, state.requestId)
    notes.push(charge.clamped)
  }
  const logged = context.options.boolean('LogConsumeEnabled')
  const mappedModel = input.relayRequest.mappedModel
  const log = () => consumeLog(state, channel, pricing, mappedModel, charge, notes, streamed)
  try {
    await services.ledger.settle(reservation, charge.quota, channel.id, logged ? log() : undefined)
  } catch (error) {
    // The client was served: its log is written all the same, saying the charge is missing
    // (its reservation stays taken), so the administrator can see and settle it.
    hooks.ledgerFailed(error, 'settling a served request', state.requestId)
    notes.push(`the charge could not be recorded (${(error as Error).message}); the reservation stays taken`)
    if (logged) services.logWriter.write(log())
  } finally {
    outcome.finish()
  }
}

/**
 * What a failed attempt (already refunded) leaves: the error the client may be answered, its
 * channel's health, the dashboards' error count, and the channel the next attempt moves from.
 */
export function noteFailure(
  context: AppContext,
  services: RelayServices,
  input: AttemptInput,
  error: UpstreamError,
  tries: Tries,
): void {
  const { state, channel } = input
  tries.lastError = error
  tries.lastErrorChannel = channel.id
  tries.movingFrom = { channel: String(channel.id), model: state.facts.model }
  if (coolsDown(error)) services.router.reportFailure(channel.id)
  // A failed attempt counts against its channel's error rate, unless the client left first.
  if (!state.clientGone && context.options.boolean('LogConsumeEnabled')) {
    services.usageErrors.record(state.caller.user.id, input.relayRequest.mappedModel, channel.id)
  }
  context.channelHealth?.reportFailure(channel, error)
}

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

/** Counts the request under `channel` and its model, with its time and the upstream's share. */
export function recordRelayMetrics(
  services: RelayServices,
  state: RelayState,
  channel: string,
  status: number,
): void {
  services.metrics.recordRequest(
    channel,
    state.facts.model,
    state.mode,
    status,
    Number(elapsedNanos(state)) / 1e9,
    Number(state.upstreamNanos) / 1e9,
  )
}
