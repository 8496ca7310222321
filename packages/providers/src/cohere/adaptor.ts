/**
 * Cohere channels (type 35): Chat v2 (`/v2/chat`, its event stream), Embed v2 (`/v2/embed`) and
 * Rerank v2 (`/v2/rerank`), Bearer key.
 * https://docs.cohere.com/reference/chat
 * https://docs.cohere.com/reference/embed
 * https://docs.cohere.com/reference/rerank
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
import { cohereChatBody, cohereEmbedBody, cohereRerankBody } from './request-body.ts'
import { parseCohereResponse } from './response.ts'
import { CohereToOpenAiStream } from './stream.ts'

export const COHERE_DEFAULT_BASE_URL = 'https://api.cohere.ai'
/** Cohere's v3+ embedding models require an input type; documents unless the channel says otherwise. */
const DEFAULT_INPUT_TYPE = 'search_document'

const PATHS: Partial<Record<RelayRequest['mode'], string>> = {
  chat: '/v2/chat',
  embeddings: '/v2/embed',
  rerank: '/v2/rerank',
}

function baseUrl(channel: ChannelCredentials): string {
  const base = (channel.baseUrl || COHERE_DEFAULT_BASE_URL).replace(/\/+$/, '')
  // A base URL given with its version (as SDKs take it) is accepted as well.
  return base.replace(/\/v[12]$/, '')
}

function body(request: RelayRequest, channel: ChannelCredentials): unknown {
  if (request.mode === 'embeddings') {
    const configured = channel.config?.input_type
    return cohereEmbedBody(
      request,
      typeof configured === 'string' && configured ? configured : DEFAULT_INPUT_TYPE,
    )
  }
  if (request.mode === 'rerank') return cohereRerankBody(request)
  return cohereChatBody(request)
}

function buildRequest(request: RelayRequest, channel: ChannelCredentials): UpstreamRequest | UpstreamError {
  const path = PATHS[request.mode]
  if (!path || !request.json) {
    // Another channel of a different type may serve this mode.
    return localError(400, 'unsupported_relay_mode', `Cohere channels do not serve ${request.mode}`, {
      retryable: true,
      type: 'invalid_request_error',
    })
  }
  return {
    kind: 'request',
    url: baseUrl(channel) + path,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: request.stream ? 'text/event-stream' : 'application/json',
      Authorization: `Bearer ${channel.key}`,
    },
    body: JSON.stringify(body(request, channel)),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

export const cohereAdaptor: Adaptor = {
  name: 'cohere',
  buildRequest,
  parseResponse: parseCohereResponse,
  createStreamTransformer: (request): StreamTransformer => new CohereToOpenAiStream(request),
}
