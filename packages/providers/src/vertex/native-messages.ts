/**
 * Clients of the Messages API (`/v1/messages`) on Vertex AI channels: for Claude models their own
 * request is relayed natively (as to Anthropic channels: the client's body, without `model` and
 * with `anthropic_version: vertex-2023-10-16`, answers and events passed on as they come); Gemini
 * models are served through the Messages bridge around the Vertex adaptor.
 */
import type { Adaptor, ChannelCredentials, RelayRequest, UpstreamError, UpstreamRequest } from '../adaptor.ts'
import { anthropicNativeAdaptor } from '../anthropic/adaptor.ts'
import { anthropicClientBridge } from '../anthropic-client/bridge.ts'
import { claudeRequest, vertexAdaptor } from './adaptor.ts'
import { vertexByModel } from './by-model.ts'
import { vertexClaudeNativeBody } from './claude.ts'
import { vertexError } from './errors.ts'

const bridged = anthropicClientBridge(vertexAdaptor)

function buildNativeRequest(
  request: RelayRequest,
  channel: ChannelCredentials,
): UpstreamRequest | UpstreamError {
  const native = request.native?.json
  if (!native) return vertexAdaptor.buildRequest(request, channel)
  return claudeRequest(request, channel, () => vertexClaudeNativeBody(native, request.systemPrompt))
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
