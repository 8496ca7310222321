import { clientFacingError, toOpenAiErrorBody, type UpstreamError } from '@one-api/providers'
import { RelayError } from '../auth/relay-error.ts'
import { sendAnswer } from '../front/client-response.ts'
import { CLIENT_CLOSED_REQUEST } from '../relay-metrics.ts'
import type { RelayServices } from '../relay-services.ts'
import type { Tries } from './attempt-types.ts'
import type { RelayState } from './relay-state.ts'
import { recordRelayMetrics } from './settle.ts'
import { UPSTREAM_REQUEST_ID } from './upstream-exchange.ts'

/**
 * Answers a request no attempt served: nothing when the client left (counted as 499), else the
 * last upstream error as the client may see it, else why no channel could be tried (thrown as a
 * RelayError, answered and counted by the relay's entry).
 */
export function answerFailure(services: RelayServices, state: RelayState, tries: Tries): void {
  const { lastError, lastErrorChannel } = tries
  if (state.clientGone) {
    // Counted as nginx counts a client that closed its request, since nothing was served: under
    // the channel it was waiting for, or 'none' when it left before any was tried.
    const channel = lastErrorChannel ? String(lastErrorChannel) : 'none'
    recordRelayMetrics(services, state, channel, CLIENT_CLOSED_REQUEST)
    return
  }
  if (lastError) {
    answerUpstreamError(services, state, lastError, lastErrorChannel)
    return
  }
  throw noChannelServed(state, tries)
}

function answerUpstreamError(
  services: RelayServices,
  state: RelayState,
  error: UpstreamError,
  channel: number,
): void {
  const answer = clientFacingError(error)
  // Counted under the channel that failed it last (under 'none', a channel's errors showed only
  // as retries, and not at all without RetryTimes).
  recordRelayMetrics(services, state, String(channel), answer.status)
  const body = toOpenAiErrorBody(answer, ` (request id: ${state.requestId})`)
  const headers: Record<string, string> = {}
  // A rate limit the upstream timed is passed on, so clients back off as long as it asked.
  if (answer.status === 429 && answer.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(answer.retryAfterSeconds)
  }
  if (answer.upstreamRequestId !== undefined) headers[UPSTREAM_REQUEST_ID] = answer.upstreamRequestId
  sendAnswer(state.response, state.requestId, answer.status, 'application/json', body, headers)
}

/** Why no channel was tried: the model has no price, its channels' type is not served, or none is. */
function noChannelServed(state: RelayState, tries: Tries): RelayError {
  if (tries.unpriced) {
    return new RelayError(
      400,
      `The model ${tries.unpriced} has no price: an administrator must set its ratio (ModelRatio) before it can be used`,
      'model_price_not_set',
      'invalid_request_error',
    )
  }
  const { model } = state.facts
  const group = state.caller.user.group
  if (tries.unsupported) {
    return new RelayError(
      503,
      `No available channel for model ${model} in group ${group}: its channels are of a type this gateway does not serve`,
      'no_available_channel',
    )
  }
  return new RelayError(
    503,
    `No available channel for model ${model} in group ${group}`,
    'no_available_channel',
  )
}
