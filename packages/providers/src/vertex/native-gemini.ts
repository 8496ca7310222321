/**
 * Clients of Gemini's API (`/v1beta/models/{model}:generateContent`) on Vertex AI channels: for
 * Gemini models their own request is relayed natively, as to Gemini channels (Vertex's
 * generateContent takes Google's same GenerateContentRequest), to publisher google with the
 * channel's token; Claude models are served through the Gemini bridge around the Vertex adaptor.
 * One difference: Vertex requires each content's `role`, which the Gemini API lets a single-turn
 * request leave out; a content without one is sent as the user's, as Google's SDKs send it.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 */
import type { Adaptor, RelayRequest } from '../adaptor.ts'
import { geminiClientBridge } from '../gemini-client/bridge.ts'
import { geminiNativeAdaptorFor } from '../gemini-client/native-adaptor.ts'
import { isRecord } from '../shared/json.ts'
import { vertexAdaptor } from './adaptor.ts'
import { vertexByModel } from './by-model.ts'
import { vertexGeminiTarget } from './gemini.ts'

/** The request with `role: 'user'` on each content of the client's body that has no role. */
function withRoles(request: RelayRequest): RelayRequest {
  const native = request.native
  const contents = native?.json.contents
  if (!native || !Array.isArray(contents)) return request
  if (contents.every((content) => !isRecord(content) || content.role !== undefined)) return request
  const filled = contents.map((content) =>
    isRecord(content) && content.role === undefined ? { ...content, role: 'user' } : content,
  )
  return { ...request, native: { ...native, json: { ...native.json, contents: filled } } }
}

const native = geminiNativeAdaptorFor(vertexGeminiTarget)
const geminiNative: Adaptor = {
  ...native,
  buildRequest: (request, channel) => native.buildRequest(withRoles(request), channel),
}

export const vertexGeminiClientAdaptor: Adaptor = vertexByModel(
  geminiNative,
  geminiClientBridge(vertexAdaptor),
)
