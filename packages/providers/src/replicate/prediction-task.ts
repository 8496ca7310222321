/**
 * A Replicate prediction as a TaskPlan. The create call waits up to PREFER_WAIT_SECONDS for the
 * result; a prediction still running is polled (`GET /v1/predictions/{id}`, built from the
 * channel's base URL and the id: the key is never sent to a URL the answer names) every
 * POLL_INTERVAL_MS, as one-api polls. A stream request reads the prediction's `urls.stream`
 * instead, as soon as the create call answers.
 * https://replicate.com/docs/topics/predictions/lifecycle
 * https://replicate.com/docs/topics/predictions/streaming
 */
import type { ChannelCredentials, RelayRequest, TaskPlan, TaskStep, UpstreamResponse } from '../adaptor.ts'
import { isRecord } from '../shared/json.ts'
import { localError } from '../shared/upstream-error.ts'
import { apiBase, authorization } from './request.ts'
import { prediction, predictionFailure } from './response.ts'

export const POLL_INTERVAL_MS = 3_000
/** The create call's wait, then polls: a slow image model has three minutes in all. */
export const PREDICTION_DEADLINE_MS = 180_000
const RUNNING = new Set(['starting', 'processing'])

export function predictionPlan(request: RelayRequest, channel: ChannelCredentials): TaskPlan {
  return { deadlineMs: PREDICTION_DEADLINE_MS, next: (answer) => nextStep(request, channel, answer) }
}

function nextStep(request: RelayRequest, channel: ChannelCredentials, answer: UpstreamResponse): TaskStep {
  const parsed = prediction(answer)
  if (parsed.kind === 'error') return parsed
  const { json } = parsed
  const urls = isRecord(json.urls) ? json.urls : {}
  if (
    request.mode === 'chat' &&
    request.stream &&
    typeof urls.stream === 'string' &&
    json.status !== 'failed' &&
    json.status !== 'canceled'
  ) {
    // The stream needs no key (its URL is the credential), and gets none.
    return {
      kind: 'stream',
      request: { url: urls.stream, headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-store' } },
    }
  }
  if (json.status === 'succeeded') return { kind: 'done' }
  if (!RUNNING.has(String(json.status))) return predictionFailure(json)
  if (typeof json.id !== 'string' || json.id === '') {
    return localError(502, 'invalid_upstream_response', 'the upstream prediction has no id', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const url = `${apiBase(channel)}/v1/predictions/${encodeURIComponent(json.id)}`
  return {
    kind: 'poll',
    afterMs: POLL_INTERVAL_MS,
    request: { url, headers: { Authorization: authorization(channel) } },
  }
}
