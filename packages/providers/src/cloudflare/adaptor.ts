/**
 * Cloudflare Workers AI channels (type 37): the OpenAI-compatible endpoints of Workers AI, as
 * one-api calls them: `{base}/client/v4/accounts/{account id}/ai/v1/chat/completions` and
 * `.../v1/embeddings`, with the account id from the channel's config (`user_id`, the console's
 * "Account ID") and the API token as Bearer. A base URL on Cloudflare's AI Gateway
 * (`https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/workers-ai`) is used as the prefix
 * itself. Requests and answers are OpenAI's; Cloudflare's own error envelope
 * (`{"success":false,"errors":[{"code","message"}]}`) is read for the message and the code.
 * https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/
 */
import type {
  Adaptor,
  ChannelCredentials,
  ParsedResponse,
  RelayRequest,
  UpstreamError,
  UpstreamRequest,
  UpstreamResponse,
} from '../adaptor.ts'
import { openAiCompatibleAdaptor } from '../openai-compatible/adaptor.ts'
import { isRecord } from '../shared/json.ts'
import { localError, mapUpstreamError } from '../shared/upstream-error.ts'

export const CLOUDFLARE_DEFAULT_BASE_URL = 'https://api.cloudflare.com'
const AI_GATEWAY = 'https://gateway.ai.cloudflare.com'
/** The OpenAI-compatible channel type: its URLs are the base plus the path without /v1. */
const OPENAI_COMPATIBLE = 50

function prefix(channel: ChannelCredentials): string | UpstreamError {
  const base = (channel.baseUrl || CLOUDFLARE_DEFAULT_BASE_URL).replace(/\/+$/, '')
  if (base.startsWith(AI_GATEWAY)) return base
  const account = channel.config?.user_id
  if (typeof account !== 'string' || account.trim() === '') {
    return localError(
      500,
      'channel_config_missing',
      'the Cloudflare channel needs its account id (config user_id)',
      {
        retryable: true,
      },
    )
  }
  return `${base}/client/v4/accounts/${encodeURIComponent(account.trim())}/ai`
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' && request.mode !== 'embeddings') {
    return localError(400, 'unsupported_relay_mode', `Cloudflare channels do not serve ${request.mode}`, {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  const root = prefix(channel)
  if (typeof root !== 'string') return root
  return openAiCompatibleAdaptor.buildRequest(request, {
    ...channel,
    type: OPENAI_COMPATIBLE,
    baseUrl: `${root}/v1`,
  })
}

/** Cloudflare's error codes that stand for an HTTP status of their own. */
const STATUS_OF_CODE: Record<number, number> = { 5007: 404, 3040: 429, 3036: 429 }

function cloudflareError(response: UpstreamResponse): UpstreamError {
  let json: unknown
  try {
    json = JSON.parse(response.body.toString('utf8'))
  } catch {
    return mapUpstreamError(response.status, response.body, response.headers)
  }
  const first =
    isRecord(json) && Array.isArray(json.errors) && isRecord(json.errors[0]) ? json.errors[0] : undefined
  if (!first) return mapUpstreamError(response.status, response.body, response.headers)
  const code = typeof first.code === 'number' ? first.code : null
  const status = (code !== null && STATUS_OF_CODE[code]) || response.status
  const type =
    status === 401 ? 'authentication_error' : status >= 500 ? 'upstream_error' : 'invalid_request_error'
  const message = typeof first.message === 'string' ? first.message : `Cloudflare error ${code}`
  return mapUpstreamError(
    status,
    JSON.stringify({ error: { message, type, param: null, code } }),
    response.headers,
  )
}

/**
 * Workers AI's chat answers leave out members OpenAI's schema requires of every answer (a message's
 * `refusal`, a choice's `logprobs`): they are added as null so that strict clients can read them.
 */
function completeChatAnswer(parsed: ParsedResponse): ParsedResponse {
  let json: unknown
  try {
    json = JSON.parse(parsed.body.toString('utf8'))
  } catch {
    return parsed
  }
  if (!isRecord(json) || !Array.isArray(json.choices)) return parsed
  for (const choice of json.choices) {
    if (!isRecord(choice)) continue
    if (!('logprobs' in choice)) choice.logprobs = null
    if (isRecord(choice.message) && !('refusal' in choice.message)) choice.message.refusal = null
  }
  return { ...parsed, body: Buffer.from(JSON.stringify(json)) }
}

function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300) return cloudflareError(response)
  const parsed = openAiCompatibleAdaptor.parseResponse(response, request)
  return parsed.kind === 'response' && request.mode === 'chat' && !request.stream
    ? completeChatAnswer(parsed)
    : parsed
}

export const cloudflareAdaptor: Adaptor = {
  name: 'cloudflare',
  buildRequest,
  parseResponse,
  createStreamTransformer: (request, built) =>
    openAiCompatibleAdaptor.createStreamTransformer(request, built),
}
