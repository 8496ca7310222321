/**
 * Replicate predictions read for the client: a language model's output (a list of text pieces)
 * as an OpenAI chat completion, an image model's (URLs) as OpenAI's image answer; and Replicate's
 * errors (`{"title", "detail", "status"}`, or a failed prediction's `error`).
 * https://replicate.com/docs/topics/predictions/lifecycle
 */

import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { chatCompletionResponse } from '../shared/chat-completion.ts'
import { countOrZero, isRecord, type Json } from '../shared/json.ts'
import { localError, mapUpstreamError } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/** A 2xx answer's prediction, or the error it is. */
export function prediction(response: UpstreamResponse): { kind: 'prediction'; json: Json } | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return mapUpstreamError(status, body, headers)
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    json = undefined
  }
  if (!isRecord(json) || typeof json.status !== 'string') {
    return localError(502, 'invalid_upstream_response', 'the upstream answered without a prediction', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  return { kind: 'prediction', json }
}

/** A prediction that failed or was canceled: retried elsewhere, since nothing reached the client. */
export function predictionFailure(json: Json): UpstreamError {
  const reason = typeof json.error === 'string' && json.error !== '' ? `: ${json.error}` : ''
  return localError(502, 'prediction_failed', `the upstream prediction ${String(json.status)}${reason}`, {
    retryable: true,
    type: 'upstream_error',
  })
}

/** Language models report their token counts in `metrics`; absent counts are made locally. */
export function predictionUsage(metrics: unknown): Usage | undefined {
  if (!isRecord(metrics)) return undefined
  const input = countOrZero(metrics.input_token_count)
  const output = countOrZero(metrics.output_token_count)
  if (input + output === 0) return undefined
  return {
    promptTokens: input,
    completionTokens: output,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: input + output,
  }
}

/** A language model's output: pieces of text, or one string. */
export const outputText = (output: unknown): string =>
  typeof output === 'string'
    ? output
    : Array.isArray(output)
      ? output.filter((piece) => typeof piece === 'string').join('')
      : ''

function finished(response: UpstreamResponse): { kind: 'prediction'; json: Json } | UpstreamError {
  const parsed = prediction(response)
  if (parsed.kind === 'error' || parsed.json.status === 'succeeded') return parsed
  return predictionFailure(parsed.json)
}

export function parseChat(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  const done = finished(response)
  if (done.kind === 'error') return done
  const { json } = done
  const text = outputText(json.output)
  const usage = predictionUsage(json.metrics)
  const id = typeof json.id === 'string' ? json.id : 'replicate'
  return chatCompletionResponse({ id, text, finishReason: 'stop', usage }, request)
}

export function parseImages(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  const done = finished(response)
  if (done.kind === 'error') return done
  const { json } = done
  const output = json.output
  const urls = (Array.isArray(output) ? output : [output]).filter(
    (url): url is string => typeof url === 'string',
  )
  if (urls.length === 0) {
    return localError(502, 'invalid_upstream_response', 'the upstream prediction finished without images', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  const answer = { created: request.receivedAt ?? 0, data: urls.map((url) => ({ url })) }
  return {
    kind: 'response',
    body: Buffer.from(JSON.stringify(answer)),
    usage: undefined,
    imageCount: urls.length,
  }
}
