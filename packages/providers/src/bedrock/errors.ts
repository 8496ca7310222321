/**
 * Bedrock's errors, by their type: the `x-amzn-errortype` header of a failed call (its name before
 * any `:`), or the `:exception-type` of an exception in an event stream, with `{"message": ...}`.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
 */

import type { UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { parseJsonObject } from '../shared/json.ts'
import { extractErrorFields } from '../shared/upstream-error.ts'

interface Rule {
  status: number
  retryable: boolean
  disableChannel: boolean
  type: string
}

const refused: Rule = { status: 401, retryable: true, disableChannel: true, type: 'authentication_error' }
const busy: Rule = { status: 429, retryable: true, disableChannel: false, type: 'rate_limit_error' }
const failing = (status: number): Rule => ({
  status,
  retryable: true,
  disableChannel: false,
  type: 'upstream_error',
})

/** Error types, lower-cased (the stream's exception types are camel-cased). */
const RULES: Record<string, Rule> = {
  // The keys or the account: the channel is unusable.
  accessdeniedexception: refused,
  unrecognizedclientexception: refused,
  invalidsignatureexception: refused,
  incompletesignature: refused,
  expiredtokenexception: refused,
  invalidclienttokenid: refused,
  missingauthenticationtoken: refused,
  // Busy: another channel may take it.
  throttlingexception: busy,
  servicequotaexceededexception: busy,
  modelnotreadyexception: busy,
  // The request itself: every channel would refuse it.
  validationexception: {
    status: 400,
    retryable: false,
    disableChannel: false,
    type: 'invalid_request_error',
  },
  resourcenotfoundexception: {
    status: 404,
    retryable: false,
    disableChannel: false,
    type: 'invalid_request_error',
  },
  // Bedrock's own trouble.
  modeltimeoutexception: failing(408),
  internalserverexception: failing(500),
  serviceunavailableexception: failing(503),
  modelstreamerrorexception: failing(502),
  modelerrorexception: failing(502),
}

function headerValue(headers: UpstreamResponse['headers'] | undefined, name: string): string | undefined {
  const raw = headers?.[name]
  return Array.isArray(raw) ? raw[0] : raw
}

/** The rule for a status without a known type. */
function byStatus(status: number): Rule {
  if (status === 401 || status === 403) return refused
  if (status === 429) return busy
  if (status >= 500 || status === 408) return failing(status)
  return { status, retryable: false, disableChannel: false, type: 'invalid_request_error' }
}

/** A Bedrock error: its type (header or stream), its status and its body's message. */
export function bedrockError(
  errorType: string | undefined,
  status: number,
  body: Buffer | string,
  headers?: UpstreamResponse['headers'],
): UpstreamError {
  const name = (errorType ?? '').split(':')[0]!.trim()
  const rule = RULES[name.toLowerCase()] ?? byStatus(status)
  const fields = extractErrorFields(status, body)
  const json = parseJsonObject(body)
  const message = typeof json?.Message === 'string' ? json.Message : fields.message
  return {
    kind: 'error',
    status: rule.status,
    message,
    type: rule.type,
    param: null,
    code: name || fields.code,
    retryable: rule.retryable,
    disableChannel: rule.disableChannel,
    upstreamRequestId: headerValue(headers, 'x-amzn-requestid'),
  }
}

/** A failed Converse call. */
export function bedrockHttpError(response: UpstreamResponse): UpstreamError {
  const type = headerValue(response.headers, 'x-amzn-errortype')
  return bedrockError(type, response.status, response.body, response.headers)
}
