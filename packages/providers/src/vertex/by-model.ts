/**
 * One Vertex AI adaptor for a client API out of two: Gemini models (publisher google) served by
 * `gemini`, the others (Claude's, publisher anthropic) by `claude`. The channel's token comes from
 * its service account either way, and a model name Vertex cannot take is refused before anything is built.
 */
import type { Adaptor, RelayRequest } from '../adaptor.ts'
import { isGeminiModel, vertexAccess, vertexCredentialExchange } from './adaptor.ts'

export function vertexByModel(gemini: Adaptor, claude: Adaptor): Adaptor {
  const byModel = (request: RelayRequest): Adaptor => (isGeminiModel(request.mappedModel) ? gemini : claude)
  return {
    name: 'vertex-ai',
    remoteImages: (request) => byModel(request).remoteImages?.(request) ?? [],
    credentialExchange: vertexCredentialExchange,
    buildRequest(request, channel) {
      const access = vertexAccess(request, channel)
      if ('kind' in access) return access
      return byModel(request).buildRequest(request, channel)
    },
    parseResponse: (response, request) => byModel(request).parseResponse(response, request),
    createStreamTransformer: (request, built) => byModel(request).createStreamTransformer(request, built),
  }
}
