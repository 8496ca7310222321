/**
 * Gemini clients served by a Gemini upstream: the client's GenerateContentRequest passed on as it
 * came, but for the model the channel maps it to (in the URL), the channel's forced system prompt
 * (as systemInstruction) and, when the client sent no safety settings of its own, the
 * administrator's (GEMINI_SAFETY_SETTING for every harm category, as on the translated path); the
 * answer passed back as it came, its usageMetadata billed. Streams are always asked with `alt=sse`
 * and framed for the client (native-stream.ts).
 */
import type {
  Adaptor,
  ParsedResponse,
  StreamTransformer,
  UpstreamError,
  UpstreamResponse,
} from '../adaptor.ts'
import { type GeminiTarget, geminiAdaptorFor, geminiTarget, safetyThreshold } from '../gemini/adaptor.ts'
import { safetySettings } from '../gemini/request-body.ts'
import { geminiUsage, parseGeminiJson } from '../gemini/response.ts'
import { GeminiNativeStream } from './native-stream.ts'

function parseNativeResponse(response: UpstreamResponse): ParsedResponse | UpstreamError {
  const parsed = parseGeminiJson(response)
  if (parsed.kind === 'error') return parsed
  return { kind: 'response', body: response.body, usage: geminiUsage(parsed.json.usageMetadata) }
}

export function geminiNativeAdaptorFor(target: GeminiTarget): Adaptor {
  const translated = geminiAdaptorFor(target)
  return {
    name: target.name,
    buildRequest(request, channel) {
      const native = request.native?.json
      if (!native) return translated.buildRequest(request, channel)
      const body: Record<string, unknown> = { ...native }
      if (request.systemPrompt) body.systemInstruction = { parts: [{ text: request.systemPrompt }] }
      // Google's JSON takes both spellings of a field; either one means the client chose its own.
      if (!('safetySettings' in native) && !('safety_settings' in native)) {
        body.safetySettings = safetySettings(safetyThreshold(channel))
      }
      const action = request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
      const auth = target.headers(channel)
      if ('kind' in auth) return auth as UpstreamError
      return {
        kind: 'request',
        url: target.url(channel, request.mappedModel, action),
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: request.stream ? 'text/event-stream' : 'application/json',
          ...auth,
        },
        body: JSON.stringify(body),
        bodyRewritten: true,
        dropUsageChunk: false,
      }
    },
    parseResponse: parseNativeResponse,
    createStreamTransformer: (request): StreamTransformer => new GeminiNativeStream(request),
  }
}

export const geminiNativeAdaptor: Adaptor = geminiNativeAdaptorFor(geminiTarget)
