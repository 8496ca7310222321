/**
 * Gemini on Vertex AI: the Gemini adaptor's bodies, answers and streams (gemini/), sent to the
 * channel's project and region under publisher google with the OAuth token instead of an API key.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 */
import type { Adaptor } from '../adaptor.ts'
import { type GeminiTarget, geminiAdaptorFor } from '../gemini/adaptor.ts'
import { localError } from '../shared/upstream-error.ts'
import { vertexSettings } from './service-account.ts'
import { vertexUrl } from './url.ts'

export const vertexGeminiTarget: GeminiTarget = {
  name: 'vertex-ai',
  url(channel, model, action) {
    // headers() ran first and refused a channel without usable settings.
    const settings = vertexSettings(channel)
    if ('kind' in settings) return ''
    return vertexUrl(channel, settings, 'google', model.replace(/^models\//, ''), action)
  },
  headers(channel) {
    const settings = vertexSettings(channel)
    if ('kind' in settings) return settings
    if (!channel.accessToken)
      return localError(500, 'no_access_token', 'the Vertex AI token was not obtained')
    return { authorization: `Bearer ${channel.accessToken}` }
  },
}

export const vertexGeminiAdaptor: Adaptor = geminiAdaptorFor(vertexGeminiTarget)
