/**
 * Anthropic channels (type 14): the Messages API with `x-api-key` and `anthropic-version`.
 * https://docs.anthropic.com/en/api/messages
 * https://docs.anthropic.com/en/api/versioning
 * `anthropicAdaptor` serves OpenAI clients (chat completions translated both ways);
 * `anthropicNativeAdaptor` serves clients of `/v1/messages` (their request passed on as it came,
 * but for the model the channel maps it to and the channel's system prompt).
 */
import type {
  Adaptor,
  ChannelCredentials,
  ParsedResponse,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
  UpstreamResponse,
} from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { AnthropicNativeStream } from './native-stream.ts'
import { anthropicBody, remoteImageUrls } from './request-body.ts'
import { anthropicUsage, parseAnthropicJson, parseAnthropicResponse } from './response.ts'
import { AnthropicToOpenAiStream } from './stream.ts'

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'
/** The API version sent unless the channel's config sets `anthropic_version`. */
export const ANTHROPIC_VERSION = '2023-06-01'

const configString = (channel: ChannelCredentials, field: string): string | undefined => {
  const value = channel.config?.[field]
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

function upstreamUrl(channel: ChannelCredentials): string {
  const base = (channel.baseUrl || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '')
  // A base URL given with its /v1 (as SDKs take it) is accepted as well.
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`
}

function headers(request: RelayRequest, channel: ChannelCredentials): Record<string, string> {
  const result: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: request.stream ? 'text/event-stream' : 'application/json',
    'x-api-key': channel.key,
    'anthropic-version': configString(channel, 'anthropic_version') ?? ANTHROPIC_VERSION,
  }
  // Beta features (prompt caching on old versions, 1h cache, ...) the channel opts into.
  const beta = configString(channel, 'anthropic_beta')
  if (beta) result['anthropic-beta'] = beta
  return result
}

function upstreamRequest(request: RelayRequest, channel: ChannelCredentials, body: unknown): UpstreamRequest {
  return {
    kind: 'request',
    url: upstreamUrl(channel),
    method: 'POST',
    headers: headers(request, channel),
    body: JSON.stringify(body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (request.mode !== 'chat' || !request.json) {
    return localError(400, 'unsupported_endpoint', `Anthropic channels serve chat completions only`, {
      type: 'invalid_request_error',
    })
  }
  const body = anthropicBody(request.json, {
    model: request.mappedModel,
    stream: request.stream,
    systemPrompt: request.systemPrompt,
    images: request.images,
  })
  return upstreamRequest(request, channel, body)
}

export const anthropicAdaptor: Adaptor = {
  name: 'anthropic',
  remoteImages: (request) => remoteImageUrls(request.json),
  buildRequest,
  parseResponse: parseAnthropicResponse,
  createStreamTransformer: (request): StreamTransformer => new AnthropicToOpenAiStream(request),
}

/** The client's Messages request with the channel's model and forced system prompt. */
function buildNativeRequest(
  request: RelayRequest,
  channel: ChannelCredentials,
): UpstreamRequest | UpstreamError {
  const native = request.native?.json
  if (!native) return buildRequest(request, channel)
  const body: Record<string, unknown> = { ...native, model: request.mappedModel }
  if (request.systemPrompt) body.system = request.systemPrompt
  return upstreamRequest(request, channel, body)
}

/** A Messages answer for a Messages client: passed on as it came, its usage read. */
function parseNativeResponse(response: UpstreamResponse): ParsedResponse | UpstreamError {
  const parsed = parseAnthropicJson(response)
  if (parsed.kind === 'error') return parsed
  const usage = anthropicUsage(parsed.json.usage)
  return { kind: 'response', body: response.body, usage }
}

export const anthropicNativeAdaptor: Adaptor = {
  name: 'anthropic',
  buildRequest: buildNativeRequest,
  parseResponse: parseNativeResponse,
  createStreamTransformer: (): StreamTransformer => new AnthropicNativeStream(),
}
