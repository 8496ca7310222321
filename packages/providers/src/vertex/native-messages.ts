/**
 * Clients of the Messages API (`/v1/messages`) on Vertex AI channels: for Claude models their own
 * request is relayed natively (as to Anthropic channels: the client's body, without `model` and
 * with `anthropic_version: vertex-2023-10-16`, answers and events passed on as they come); Gemini
 * models are served through the Messages bridge around the Vertex adaptor.
 */
import type { Adaptor, ChannelCredentials, RelayRequest, UpstreamError, UpstreamRequest } from '../adaptor.ts'
import { anthropicNativeAdaptor } from '../anthropic/adaptor.ts'
import { anthropicClientBridge } from '../anthropic-client/bridge.ts'
import { bearerRequest, vertexAccess, vertexAdaptor } from './adaptor.ts'
import { vertexByModel } from './by-model.ts'
import { claudeAction, vertexClaudeNativeBody } from './claude.ts'
import { vertexError } from './errors.ts'
import { vertexUrl } from './url.ts'

const bridged = anthropicClientBridge(vertexAdaptor)

function buildNativeRequest(
  request: RelayRequest,
  channel: ChannelCredentials,
): UpstreamRequest | UpstreamError {
  const native = request.native?.json
  if (!native) return vertexAdaptor.buildRequest(request, channel)
  const access = vertexAccess(request, channel)
  if ('kind' in access) return access
  const url = vertexUrl(
    channel,
    access.settings,
    'anthropic',
    request.mappedModel,
    claudeAction(request.stream),
  )
  return bearerRequest(
    url,
    access.token,
    request.stream,
    vertexClaudeNativeBody(native, request.systemPrompt),
  )
}

const claudeNative: Adaptor = {
  name: 'vertex-ai',
  buildRequest: buildNativeRequest,
  parseResponse: (response, request) =>
    response.status >= 200 && response.status < 300
      ? anthropicNativeAdaptor.parseResponse(response, request)
      : vertexError(response),
  createStreamTransformer: (request, built) => anthropicNativeAdaptor.createStreamTransformer(request, built),
}

export const vertexMessagesAdaptor: Adaptor = vertexByModel(bridged, claudeNative)
