/**
 * Ollama channels (type 30): its native chat (`/api/chat`, streamed as newline-delimited JSON) and
 * embeddings (`/api/embed`) APIs; the key, when set, as a Bearer header (for proxies in front of
 * Ollama, which itself takes none).
 * https://github.com/ollama/ollama/blob/main/docs/api.md
 */
import type {
  Adaptor,
  ChannelCredentials,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { ollamaChatBody, ollamaEmbedBody, remoteImageUrls } from './request-body.ts'
import { parseOllamaResponse } from './response.ts'
import { OllamaToOpenAiStream } from './stream.ts'

export const OLLAMA_DEFAULT_BASE_URL = 'http://localhost:11434'

const PATHS: Partial<Record<RelayRequest['mode'], string>> = { chat: '/api/chat', embeddings: '/api/embed' }

/** The context window the channel's config sets (`num_ctx`), if any. */
function numCtx(channel: ChannelCredentials): number | undefined {
  const value = Number(channel.config?.num_ctx)
  return Number.isInteger(value) && value > 0 ? value : undefined
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  const path = PATHS[request.mode]
  if (!path || !request.json) {
    return localError(400, 'unsupported_relay_mode', `Ollama channels do not serve ${request.mode}`, {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  const base = (channel.baseUrl || OLLAMA_DEFAULT_BASE_URL).replace(/\/+$/, '')
  const body =
    request.mode === 'embeddings' ? ollamaEmbedBody(request) : ollamaChatBody(request, numCtx(channel))
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: request.stream ? 'application/x-ndjson' : 'application/json',
  }
  if (channel.key) headers.Authorization = `Bearer ${channel.key}`
  return {
    kind: 'request',
    url: base + path,
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

export const ollamaAdaptor: Adaptor = {
  name: 'ollama',
  remoteImages: (request) => (request.mode === 'chat' ? remoteImageUrls(request.json) : []),
  buildRequest,
  parseResponse: parseOllamaResponse,
  createStreamTransformer: (request): StreamTransformer => new OllamaToOpenAiStream(request),
}
