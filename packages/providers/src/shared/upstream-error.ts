/**
 * Classifies upstream failures once, for the client (OpenAI error shape), the retry policy and the
 * channel auto-disable monitor. Message extraction follows one-api; the disable
 * rules follow one-api's, without its over-broad bare "credit"/"balance" substrings.
 * https://platform.openai.com/docs/guides/error-codes
 */
import type { UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { isRecord, type Json } from './json.ts'

const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined

/** Error types and codes that mean the channel's key or account is unusable. */
const DISABLING_TYPES = new Set([
  'insufficient_quota',
  'authentication_error',
  'permission_error',
  'forbidden',
  // Anthropic's 402: the organisation's billing is not in order.
  'billing_error',
])
const DISABLING_CODES = new Set(['invalid_api_key', 'account_deactivated', 'insufficient_quota'])
const DISABLING_PHRASES = [
  'your access was terminated',
  'violation of our policies',
  'your credit balance is too low',
  'organization has been disabled',
  'organization has been restricted',
  'permission denied',
  'api key not valid',
  'api key expired',
  'incorrect api key',
  '已欠费',
]
/** Rejections of the request's content: another channel would refuse it too. */
const CONTENT_POLICY_CODES = new Set(['content_policy_violation', 'content_filter', 'moderation_blocked'])

export interface ErrorFields {
  message: string
  type: string
  param: string | null
  code: string | number | null
}

function parseJson(body: Buffer | string): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8')
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Extracts message/type/param/code from an upstream error body of any common shape. */
export function extractErrorFields(status: number, body: Buffer | string): ErrorFields {
  const fallback: ErrorFields = {
    message: `bad response status code ${status}`,
    type: 'upstream_error',
    param: String(status),
    code: 'bad_response_status_code',
  }
  const json = parseJson(body)
  if (!isRecord(json)) return fallback
  const error = json.error
  if (isRecord(error) && nonEmptyString(error.message)) {
    // OpenAI's own shape: keep the upstream's type/param/code as they are.
    return {
      message: error.message as string,
      type: nonEmptyString(error.type) ?? fallback.type,
      param: typeof error.param === 'string' ? error.param : null,
      code: typeof error.code === 'string' || typeof error.code === 'number' ? error.code : null,
    }
  }
  const header = json.header
  const response = json.response
  const message =
    nonEmptyString(error) ??
    nonEmptyString(json.message) ??
    nonEmptyString(json.msg) ??
    nonEmptyString(json.err) ??
    nonEmptyString(json.error_msg) ??
    nonEmptyString(json.detail) ??
    (isRecord(header) ? nonEmptyString(header.message) : undefined) ??
    (isRecord(response) && isRecord(response.error) ? nonEmptyString(response.error.message) : undefined)
  return message ? { ...fallback, message } : fallback
}

/**
 * Statuses whose messages are read for the phrases above, besides 2xx bodies carrying an error.
 * Not 400 and the like: their messages can repeat what the client sent ("Unrecognized request
 * argument supplied: <a field name of the client's>"), and a client must never be able to
 * disable a channel with words of its own choosing.
 */
const PHRASE_STATUSES = new Set([401, 402, 403, 429])

/**
 * Whether the error says the channel's key or account is dead: a 401, an error
 * type or code that means so, or one of the phrases in an answer that speaks of the account. A
 * 403 alone does not: OpenAI also answers 403 for one model the key may not use.
 */
export function shouldDisableChannel(status: number, fields: ErrorFields): boolean {
  if (status === 401) return true
  if (DISABLING_TYPES.has(fields.type)) return true
  if (typeof fields.code === 'string' && DISABLING_CODES.has(fields.code)) return true
  if (!PHRASE_STATUSES.has(status) && !(status >= 200 && status < 300)) return false
  const message = fields.message.toLowerCase()
  return DISABLING_PHRASES.some((phrase) => message.includes(phrase))
}

function isRetryable(status: number, fields: ErrorFields, disableChannel: boolean): boolean {
  if (typeof fields.code === 'string' && CONTENT_POLICY_CODES.has(fields.code)) return false
  // A dead key or exhausted account on this channel says nothing about the next channel, and
  // neither does a 403 for a model this channel's key may not use.
  if (disableChannel || status === 403) return true
  return status === 408 || status === 429 || status >= 500
}

function headerValue(headers: UpstreamResponse['headers'] | undefined, name: string): string | undefined {
  const raw = headers?.[name]
  return Array.isArray(raw) ? raw[0] : raw
}

function retryAfter(headers: UpstreamResponse['headers'] | undefined): number | undefined {
  const value = headerValue(headers, 'retry-after')
  if (value === undefined) return undefined
  const seconds = Number(value)
  // The HTTP-date form would need the clock; adaptors stay pure, so only delta-seconds are read.
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined
}

/** Maps a non-2xx upstream reply (or a 2xx whose body is an error) to an UpstreamError. */
export function mapUpstreamError(
  status: number,
  body: Buffer | string,
  headers?: UpstreamResponse['headers'],
): UpstreamError {
  const fields = extractErrorFields(status, body)
  // A 2xx carrying an error object is still a failure: a bad gateway, unless the error says the
  // request itself is wrong (a context too long, reported inside a stream), which every channel
  // would refuse alike.
  const clientStatus =
    status >= 200 && status < 300 ? (fields.type === 'invalid_request_error' ? 400 : 502) : status
  const disableChannel = shouldDisableChannel(status, fields)
  return {
    kind: 'error',
    status: clientStatus,
    ...fields,
    retryable: isRetryable(clientStatus, fields, disableChannel),
    disableChannel,
    retryAfterSeconds: retryAfter(headers),
    upstreamRequestId: headerValue(headers, 'x-request-id'),
  }
}

/**
 * What the client is told of a failed upstream call. A channel whose key or account the upstream
 * refused is the gateway's problem, not the client's: the upstream's 401 would tell the client its
 * own key is wrong, and the upstream's message may quote part of the channel's key. Such errors
 * are answered 503 with a message of the gateway's; the full error goes to the channel's health
 * monitor and the administrator.
 */
export function clientFacingError(error: UpstreamError): UpstreamError {
  if (!error.disableChannel) return error
  return {
    ...error,
    status: 503,
    type: 'upstream_error',
    param: null,
    code: 'channel_unavailable',
    message: `The upstream provider refused the credentials or the account of the channel (upstream status ${error.status})`,
    // Nothing of the refused call is the client's business.
    upstreamRequestId: undefined,
  }
}

/** A failure produced locally (bad channel configuration, unparsable upstream reply...). */
export function localError(
  status: number,
  code: string,
  message: string,
  options: { retryable?: boolean; type?: string } = {},
): UpstreamError {
  return {
    kind: 'error',
    status,
    message,
    type: options.type ?? 'one_api_error',
    param: null,
    code,
    retryable: options.retryable ?? false,
    disableChannel: false,
  }
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ABORT_ERR',
])

/**
 * Maps a transport failure (undici or node:net error) to a retryable error. The message names the
 * failure kind only: the upstream host is channel configuration users must not see.
 */
export function transportError(cause: unknown): UpstreamError {
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    // Another channel may answer within the cap (RELAY_MAX_RESPONSE_BYTES).
    return localError(
      502,
      'upstream_response_too_large',
      'the upstream answer is larger than this gateway accepts',
      {
        retryable: true,
        type: 'upstream_error',
      },
    )
  }
  const name = isRecord(cause) && typeof cause.name === 'string' ? cause.name : undefined
  const timedOut = (code !== undefined && TIMEOUT_CODES.has(code)) || name === 'TimeoutError'
  const message = timedOut
    ? 'upstream request timed out'
    : `upstream request failed${code ? ` (${code})` : ''}`
  return localError(timedOut ? 504 : 502, timedOut ? 'upstream_timeout' : 'do_request_failed', message, {
    retryable: true,
    type: 'upstream_error',
  })
}

/** The body OpenAI clients expect: `{"error":{"message","type","param","code"}}`. */
export function toOpenAiErrorBody(error: ErrorFields, messageSuffix = ''): string {
  return JSON.stringify({
    error: { message: error.message + messageSuffix, type: error.type, param: error.param, code: error.code },
  })
}

/**
 * An upstream's answer body read as a JSON object; anything else (invalid JSON, an array, a bare
 * value) is the upstream's fault and answered 502, tried on another channel. `notObjectCode` is the
 * error code for JSON that is not an object (the client-API bridges say invalid_upstream_response).
 */
export function readJsonObject(
  body: Buffer,
  notObjectCode = 'unmarshal_response_body_failed',
): { kind: 'json'; json: Json } | UpstreamError {
  let json: unknown
  try {
    json = JSON.parse(body.toString('utf8'))
  } catch {
    return localError(502, 'unmarshal_response_body_failed', 'upstream returned invalid JSON', {
      retryable: true,
    })
  }
  if (!isRecord(json)) {
    return localError(502, notObjectCode, 'upstream returned an unexpected body', { retryable: true })
  }
  return { kind: 'json', json }
}

/** A 2xx answer's body as a JSON object, or the error the answer is (its status, or its body). */
export function readAnswerJson(response: UpstreamResponse): { kind: 'json'; json: Json } | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return mapUpstreamError(status, body, headers)
  return readJsonObject(body)
}

/** A JSON answer to a stream request: the client expects SSE it cannot get; another channel may stream. */
export function nonStreamReply(): UpstreamError {
  return localError(
    502,
    'upstream_stream_not_supported',
    'upstream returned a non-stream reply to a stream request',
    {
      retryable: true,
      type: 'upstream_error',
    },
  )
}
