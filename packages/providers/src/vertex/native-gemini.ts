/**
 * Clients of Gemini's API (`/v1beta/models/{model}:generateContent`) on Vertex AI channels: for
 * Gemini models their own request is relayed natively, as to Gemini channels (Vertex's
 * generateContent takes Google's same GenerateContentRequest), to publisher google with the
 * channel's token; Claude models are served through the Gemini bridge around the Vertex adaptor.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 */
import type { Adaptor } from '../adaptor.ts'
import { geminiClientBridge } from '../gemini-client/bridge.ts'
import { geminiNativeAdaptorFor } from '../gemini-client/native-adaptor.ts'
import { vertexAdaptor } from './adaptor.ts'
import { vertexByModel } from './by-model.ts'
import { vertexGeminiTarget } from './gemini.ts'

export const vertexGeminiClientAdaptor: Adaptor = vertexByModel(
  geminiNativeAdaptorFor(vertexGeminiTarget),
  geminiClientBridge(vertexAdaptor),
)
