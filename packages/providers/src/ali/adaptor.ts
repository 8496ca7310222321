/**
 * Ali DashScope channels (type 17), DashScope's native API: chat through text generation (the
 * multimodal service when a message holds an image), embeddings, and images generated as an
 * asynchronous task that the pipeline follows (image-task.ts). Bearer key; the channel's
 * `plugin` config goes out as `X-DashScope-Plugin`.
 * https://help.aliyun.com/zh/model-studio/developer-reference/use-qwen-by-calling-api
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
import { imageTaskPlan } from './image-task.ts'
import {
  aliHeaders,
  baseUrl,
  chatRequest,
  EMBEDDING_PATH,
  embeddingBody,
  IMAGE_PATH,
  imageBody,
} from './request.ts'
import { parseChat, parseEmbeddings, parseImageTask } from './response.ts'
import { DashScopeToOpenAiStream } from './stream.ts'

const upstreamRequest = (url: string, headers: Record<string, string>, body: unknown): UpstreamRequest => ({
  kind: 'request',
  url,
  method: 'POST',
  headers,
  body: JSON.stringify(body),
  bodyRewritten: true,
  dropUsageChunk: false,
})

const refuse = (message: string): UpstreamError =>
  localError(400, 'unsupported_endpoint', message, { type: 'invalid_request_error' })

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  if (!request.json) return refuse('Ali DashScope channels take JSON requests only')
  const base = baseUrl(channel)
  switch (request.mode) {
    case 'chat': {
      const { path, body } = chatRequest(request)
      const stream: Record<string, string> = request.stream
        ? { Accept: 'text/event-stream', 'X-DashScope-SSE': 'enable' }
        : { Accept: 'application/json' }
      return upstreamRequest(`${base}${path}`, aliHeaders(channel, stream), body)
    }
    case 'embeddings':
      return upstreamRequest(`${base}${EMBEDDING_PATH}`, aliHeaders(channel), embeddingBody(request))
    case 'images':
      // The answer is a task's result read by the pipeline, never a picture's bytes.
      if (request.json.response_format === 'b64_json') {
        return refuse('Ali DashScope channels answer image requests with URLs only (response_format "url")')
      }
      return upstreamRequest(
        `${base}${IMAGE_PATH}`,
        aliHeaders(channel, { 'X-DashScope-Async': 'enable' }),
        imageBody(request),
      )
    default:
      return refuse(`Ali DashScope channels do not serve ${request.mode} requests`)
  }
}

function parseResponse(response: UpstreamResponse, request: RelayRequest): ParsedResponse | UpstreamError {
  if (request.mode === 'embeddings') return parseEmbeddings(response, request)
  if (request.mode === 'images') return parseImageTask(response, request)
  return parseChat(response, request)
}

export const aliAdaptor: Adaptor = {
  name: 'ali',
  buildRequest,
  parseResponse,
  createStreamTransformer: (request): StreamTransformer => new DashScopeToOpenAiStream(request),
  task: (request, channel) => (request.mode === 'images' ? imageTaskPlan(channel) : undefined),
}
