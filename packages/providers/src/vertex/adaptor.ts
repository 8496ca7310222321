/**
 * Vertex AI channels (type 42): Claude models (publisher anthropic, `:rawPredict` /
 * `:streamRawPredict`, claude.ts), Gemini models (publisher google, gemini.ts) and text embedding
 * models (publisher google, `:predict`, embeddings.ts) of the channel's project and region
 * (url.ts), called with an OAuth token obtained from the channel's service account
 * (access-token.ts; the pipeline caches it until shortly before it expires).
 */
import type {
  Adaptor,
  ChannelCredentials,
  RelayRequest,
  StreamTransformer,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import { remoteImageUrls } from '../anthropic/request-body.ts'
import { parseAnthropicResponse } from '../anthropic/response.ts'
import { AnthropicToOpenAiStream } from '../anthropic/stream.ts'
import { localError } from '../shared/upstream-error.ts'
import { tokenExchange } from './access-token.ts'
import { claudeAction, vertexClaudeBody } from './claude.ts'
import { parseVertexEmbeddings, vertexEmbedBody } from './embeddings.ts'
import { vertexError } from './errors.ts'
import { vertexGeminiAdaptor } from './gemini.ts'
import { type VertexSettings, vertexSettings } from './service-account.ts'
import { vertexUrl } from './url.ts'

const invalidRequest = (code: string, message: string) =>
  localError(400, code, message, { type: 'invalid_request_error' })

/** Model names as Vertex writes them (`claude-3-5-sonnet-v2@20241022`, `gemini-2.0-flash-001`). */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]*$/

export const isGeminiModel = (model: string) => model.startsWith('gemini')

/** The channel's settings and token, or why the request cannot be built. */
export function vertexAccess(
  request: RelayRequest,
  channel: ChannelCredentials,
): { settings: VertexSettings; token: string } | UpstreamError {
  const settings = vertexSettings(channel)
  if ('kind' in settings) return settings
  if (!MODEL_NAME.test(request.mappedModel)) {
    return invalidRequest('model_not_found', `${request.mappedModel} is not a Vertex AI model name`)
  }
  if (!channel.accessToken) return localError(500, 'no_access_token', 'the Vertex AI token was not obtained')
  return { settings, token: channel.accessToken }
}

export function bearerRequest(url: string, token: string, stream: boolean, body: unknown): UpstreamRequest {
  return {
    kind: 'request',
    url,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
    bodyRewritten: true,
    dropUsageChunk: false,
  }
}

function buildClaudeRequest(
  request: RelayRequest,
  channel: ChannelCredentials,
): UpstreamRequest | UpstreamError {
  const json = request.json
  if (request.mode !== 'chat' || !json) {
    return invalidRequest('unsupported_endpoint', 'Claude on Vertex AI serves chat completions only')
  }
  return claudeRequest(request, channel, () => vertexClaudeBody({ ...request, json }))
}

/** A call of Claude on Vertex AI with the body `body()` builds, or the error the channel's access is. */
export function claudeRequest(
  request: RelayRequest,
  channel: ChannelCredentials,
  body: () => unknown,
): UpstreamRequest | UpstreamError {
  const access = vertexAccess(request, channel)
  if ('kind' in access) return access
  const url = vertexUrl(
    channel,
    access.settings,
    'anthropic',
    request.mappedModel,
    claudeAction(request.stream),
  )
  return bearerRequest(url, access.token, request.stream, body())
}

function buildEmbeddingRequest(
  request: RelayRequest,
  channel: ChannelCredentials,
): UpstreamRequest | UpstreamError {
  const access = vertexAccess(request, channel)
  if ('kind' in access) return access
  if (!request.json) return invalidRequest('invalid_request', 'an embeddings request is a JSON body')
  const url = vertexUrl(channel, access.settings, 'google', request.mappedModel, 'predict')
  return bearerRequest(url, access.token, false, vertexEmbedBody(request.json))
}

/** Obtains the channel's token (see Adaptor.credentialExchange). */
export function vertexCredentialExchange(channel: ChannelCredentials, now: number) {
  const settings = vertexSettings(channel)
  return 'kind' in settings ? settings : tokenExchange(settings, now)
}

/** Claude models (publisher anthropic). */
const vertexClaudeAdaptor: Adaptor = {
  name: 'vertex-ai',
  buildRequest: buildClaudeRequest,
  parseResponse: (response, request) =>
    response.status >= 200 && response.status < 300
      ? parseAnthropicResponse(response, request)
      : vertexError(response),
  createStreamTransformer: (request): StreamTransformer => new AnthropicToOpenAiStream(request),
}

/** Gemini models go to publisher google, the others (Claude's) to publisher anthropic. */
const byModel = (request: RelayRequest): Adaptor =>
  isGeminiModel(request.mappedModel) ? vertexGeminiAdaptor : vertexClaudeAdaptor

export const vertexAdaptor: Adaptor = {
  name: 'vertex-ai',
  remoteImages: (request) => (request.mode === 'chat' ? remoteImageUrls(request.json) : []),
  credentialExchange: vertexCredentialExchange,
  buildRequest(request, channel) {
    if (request.mode === 'embeddings') return buildEmbeddingRequest(request, channel)
    if (request.mode !== 'chat') {
      return invalidRequest(
        'unsupported_endpoint',
        'Vertex AI channels serve chat completions and embeddings only',
      )
    }
    const access = vertexAccess(request, channel)
    if ('kind' in access) return access
    return byModel(request).buildRequest(request, channel)
  },
  parseResponse: (response, request) =>
    request.mode === 'embeddings'
      ? parseVertexEmbeddings(response, request)
      : byModel(request).parseResponse(response, request),
  createStreamTransformer: (request, built) => byModel(request).createStreamTransformer(request, built),
}
