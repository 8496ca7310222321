/**
 * Helpers for adaptors whose upstream takes a token obtained from the channel's key (see
 * Adaptor.credentialExchange).
 */

import { createHash } from 'node:crypto'
import type { UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { parseJsonObject } from './json.ts'
import { extractErrorFields, localError } from './upstream-error.ts'

/** A cache key for a credential: the channel type and a digest of the secret, never the secret. */
export function credentialCacheKey(type: number, secret: string): string {
  return `${type}:${createHash('sha256').update(secret).digest('base64url').slice(0, 22)}`
}

/**
 * A failed token request, classified. A token endpoint refuses the channel's own credentials with
 * a 4xx (OAuth's `invalid_client` / `invalid_grant` are 400s): the channel is unusable, so such an
 * answer disables it, and the request moves on to another channel. 408, 429 and 5xx are the
 * endpoint's trouble: retried elsewhere, the channel kept. The message never quotes the request.
 */
export function credentialExchangeError(response: UpstreamResponse): UpstreamError {
  const { status } = response
  const fields = extractErrorFields(status, response.body)
  const json = parseJsonObject(response.body)
  // OAuth's error shape: {"error": "invalid_grant", "error_description": "..."}.
  const code = typeof json?.error === 'string' ? json.error : fields.code
  const description = typeof json?.error_description === 'string' ? json.error_description : undefined
  const message = `the credential exchange failed (status ${status}): ${description ?? fields.message}`
  const transient = status === 408 || status === 429 || status >= 500 || status < 400
  return {
    kind: 'error',
    status: transient ? (status < 400 ? 502 : status) : 401,
    message,
    type: transient ? 'upstream_error' : 'authentication_error',
    param: null,
    code: code ?? null,
    retryable: true,
    disableChannel: !transient,
  }
}

/** The key the channel holds cannot be used as this type needs it: nothing is sent, the channel is disabled. */
export function unusableChannelKey(message: string): UpstreamError {
  return {
    ...localError(401, 'invalid_channel_key', message, { type: 'authentication_error', retryable: true }),
    disableChannel: true,
  }
}
