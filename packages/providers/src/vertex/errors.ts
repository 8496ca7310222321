/**
 * Vertex AI's errors: Google's shape `{"error": {"code", "message", "status"}}` (Anthropic's own
 * for some errors of Claude's rawPredict), classified by the shared rules (401 disables and, for a
 * cached token, renews it; 429 and 5xx move on), with the type a client expects for Google's
 * statuses of a bad request.
 * https://cloud.google.com/apis/design/errors#handling_errors
 */
import type { UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'

const REQUEST_STATUSES = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'FAILED_PRECONDITION', 'OUT_OF_RANGE'])

function googleStatus(body: Buffer): string | undefined {
  try {
    const json = JSON.parse(body.toString('utf8')) as { error?: { status?: unknown } }
    return typeof json.error?.status === 'string' ? json.error.status : undefined
  } catch {
    return undefined
  }
}

export function vertexError(response: UpstreamResponse): UpstreamError {
  const error = mapUpstreamError(response.status, response.body, response.headers)
  const status = googleStatus(response.body)
  if (!status) return error
  const type = REQUEST_STATUSES.has(status)
    ? 'invalid_request_error'
    : status === 'UNAUTHENTICATED'
      ? 'authentication_error'
      : error.type
  return { ...error, type, code: error.code ?? status }
}
