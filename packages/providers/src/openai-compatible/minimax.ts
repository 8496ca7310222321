/**
 * MiniMax (type 27) speaks OpenAI's format but reports some failures with HTTP 200 and a
 * `base_resp` whose `status_code` is not 0 (the same object, with 0, ends every successful answer).
 * These are read here, in answers and in stream events, and classified like any upstream error:
 * nothing of them is billed. Only MiniMax channels pay for the extra look.
 * https://platform.minimax.io/docs/api-reference/errorcode
 */
import type { Adaptor, ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { type Json, parseJsonObject } from '../shared/json.ts'
import { objectEnd, objectsHeldBy } from '../shared/json-scan.ts'
import { type BodyErrorReader, createOpenAiStreamTransformer } from '../shared/openai-stream.ts'
import { openAiCompatibleAdaptor } from './adaptor.ts'
import { parseOpenAiResponse } from './response.ts'

interface ErrorClass {
  readonly status: number
  readonly type: string
  readonly code: string
  readonly retryable: boolean
  readonly disableChannel: boolean
}

const AUTH: ErrorClass = {
  status: 401,
  type: 'authentication_error',
  code: 'invalid_api_key',
  retryable: true,
  disableChannel: true,
}
const BALANCE: ErrorClass = {
  status: 429,
  type: 'insufficient_quota',
  code: 'insufficient_quota',
  retryable: true,
  disableChannel: true,
}
const RATE_LIMIT: ErrorClass = {
  status: 429,
  type: 'rate_limit_error',
  code: 'rate_limit_exceeded',
  retryable: true,
  disableChannel: false,
}
// Another channel would refuse the same content: returned to the client, not retried.
const CONTENT: ErrorClass = {
  status: 400,
  type: 'invalid_request_error',
  code: 'content_policy_violation',
  retryable: false,
  disableChannel: false,
}
const INVALID: ErrorClass = {
  status: 400,
  type: 'invalid_request_error',
  code: 'invalid_request',
  retryable: false,
  disableChannel: false,
}
const TIMEOUT: ErrorClass = {
  status: 504,
  type: 'upstream_error',
  code: 'upstream_timeout',
  retryable: true,
  disableChannel: false,
}
const UPSTREAM: ErrorClass = {
  status: 502,
  type: 'upstream_error',
  code: 'upstream_error',
  retryable: true,
  disableChannel: false,
}

/** MiniMax's status codes by meaning; any other non-zero code is the upstream's failure. */
const CLASSES = new Map<number, ErrorClass>([
  [1001, TIMEOUT],
  [1002, RATE_LIMIT], // requests per minute
  [1004, AUTH], // not authorized
  [1008, BALANCE], // insufficient balance
  [1026, CONTENT], // input flagged as sensitive
  [1027, CONTENT], // output flagged as sensitive
  [1039, RATE_LIMIT], // tokens per minute
  [1041, RATE_LIMIT], // connections
  [2013, INVALID], // invalid parameters
  [2049, AUTH], // invalid API key
])

/** The error a `base_resp` object stands for, or undefined for success (status_code 0) and oddities. */
export function minimaxStatusError(baseResp: Json | undefined): UpstreamError | undefined {
  if (!baseResp) return undefined
  const { status_code: statusCode, status_msg: statusMessage } = baseResp
  if (typeof statusCode !== 'number' || statusCode === 0) return undefined
  const found = CLASSES.get(statusCode) ?? UPSTREAM
  const detail = typeof statusMessage === 'string' && statusMessage !== '' ? statusMessage : 'no message'
  return {
    kind: 'error',
    status: found.status,
    message: `MiniMax error ${statusCode}: ${detail}`,
    type: found.type,
    param: null,
    code: found.code,
    retryable: found.retryable,
    disableChannel: found.disableChannel,
  }
}

/** The `base_resp` object opening at `open` in `buffer[open, end)`, read as an error. */
function readBaseResp(buffer: Buffer, open: number, end: number): UpstreamError | undefined {
  const close = objectEnd(buffer, open, end)
  return close === -1 ? undefined : minimaxStatusError(parseJsonObject(buffer.subarray(open, close)))
}

const BASE_RESP = 'base_resp'
const BASE_RESP_KEY = Buffer.from(`"${BASE_RESP}"`)

export const minimaxBodyError: BodyErrorReader = { key: BASE_RESP, read: readBaseResp }

/** The error in an answer's last `base_resp`, if it holds one. */
function answerError(body: Buffer): UpstreamError | undefined {
  if (!body.includes(BASE_RESP_KEY)) return undefined
  const [positions] = objectsHeldBy(body.toString('latin1'), [BASE_RESP])
  const open = positions!.at(-1)
  return open === undefined ? undefined : readBaseResp(body, open, body.length)
}

/**
 * A 2xx answer carrying a failing `base_resp` is that failure (MiniMax answers stream requests that
 * fail so too, as JSON); everything else is read as any OpenAI-format answer.
 */
function parseMinimaxResponse(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  if (response.status >= 200 && response.status < 300) {
    const error = answerError(response.body)
    if (error) return error
  }
  return parseOpenAiResponse(response, request)
}

export const minimaxAdaptor: Adaptor = {
  ...openAiCompatibleAdaptor,
  name: 'minimax',
  parseResponse: parseMinimaxResponse,
  createStreamTransformer: (request, built) =>
    createOpenAiStreamTransformer({
      mode: request.mode === 'completions' ? 'completions' : 'chat',
      dropUsageChunk: built.dropUsageChunk,
      bodyError: minimaxBodyError,
    }),
}
