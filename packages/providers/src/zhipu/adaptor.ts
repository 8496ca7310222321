/**
 * Zhipu channels (type 16): the v4 API, OpenAI's format apart from the points below, with a JWT
 * made from the channel's `id.secret` key (jwt.ts) sent as the Authorization header, as one-api
 * sends it. https://open.bigmodel.cn/dev/api/normal-model/glm-4
 * Chat goes to /api/paas/v4/chat/completions, embeddings to /api/paas/v4/embeddings, image
 * generation to /api/paas/v4/images/generations. Zhipu's answers and chunks carry no `object`,
 * end a filtered answer with finish_reason `sensitive` and put the usage on the last chunk of a
 * stream: they are rewritten into OpenAI's form (response.ts, stream.ts).
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
import { prepareBody, withSystemPrompt } from '../openai-compatible/request-body.ts'
import { parseOpenAiResponse } from '../openai-compatible/response.ts'
import { localError } from '../shared/upstream-error.ts'
import { zhipuToken } from './jwt.ts'
import { parseZhipuChat, zhipuError } from './response.ts'
import { ZhipuStream } from './stream.ts'

export const ZHIPU_DEFAULT_BASE_URL = 'https://open.bigmodel.cn'

const PATHS: Partial<Record<RelayRequest['mode'], string>> = {
  chat: '/api/paas/v4/chat/completions',
  embeddings: '/api/paas/v4/embeddings',
  images: '/api/paas/v4/images/generations',
}

/** Zhipu takes temperature and top_p in [0, 1] only (one-api clamps them). */
const clamp = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : value

function chatBody(request: RelayRequest): string {
  const json: Record<string, unknown> = { ...request.json, model: request.mappedModel }
  // Zhipu reports a stream's usage on its last chunk, unasked.
  delete json.stream_options
  if ('temperature' in json) json.temperature = clamp(json.temperature)
  if ('top_p' in json) json.top_p = clamp(json.top_p)
  if (request.systemPrompt) json.messages = withSystemPrompt(json.messages, request.systemPrompt)
  return JSON.stringify(json)
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  const path = PATHS[request.mode]
  if (!path || !request.json) {
    return localError(400, 'unsupported_relay_mode', `Zhipu channels do not serve ${request.mode}`, {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  const token = zhipuToken(channel.key, (request.receivedAt ?? 0) * 1000)
  if (!token) {
    return localError(500, 'invalid_channel_key', 'the Zhipu channel key must be of the form id.secret', {
      retryable: true,
    })
  }
  const base = (channel.baseUrl || ZHIPU_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const chat = request.mode === 'chat'
  return {
    kind: 'request',
    url: base + path,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: request.stream ? 'text/event-stream' : 'application/json',
      Authorization: token,
    },
    body: chat ? chatBody(request) : prepareBody(request).body,
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300) return zhipuError(response)
  return request.mode === 'chat' ? parseZhipuChat(response, request) : parseOpenAiResponse(response, request)
}

export const zhipuAdaptor: Adaptor = {
  name: 'zhipu',
  buildRequest,
  parseResponse,
  createStreamTransformer: (request) => new ZhipuStream(request),
}
