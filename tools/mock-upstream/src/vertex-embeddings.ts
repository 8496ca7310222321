/**
 * Vertex AI's text embeddings (`.../publishers/google/models/{model}:predict`): one instance per
 * text (`{content, task_type?, title?}`), `parameters.outputDimensionality` and `autoTruncate`;
 * one prediction per instance, its vector and the input's statistics (`token_count`: the words of
 * the text, as every other mock usage), and `metadata.billableCharacterCount`. gemini-embedding-001
 * takes one instance per request, as Google documents; Gemini chat models are not served by predict.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
 */
import type { ServerResponse } from 'node:http'
import { sendJson } from './errors.ts'
import { isRecord, type Json } from './json.ts'

const DEFAULT_DIMENSIONS = 8
const ONE_INSTANCE_MODELS = /^gemini-embedding-001/
const INSTANCE_FIELDS = new Set(['content', 'task_type', 'title'])

const words = (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length)

/** What Vertex would refuse in the request, as [status, message], or undefined. */
function refusal(json: Json, model: string): [number, string] | undefined {
  if (model.startsWith('gemini') && !model.startsWith('gemini-embedding')) {
    return [400, 'Gemini cannot be accessed through Vertex Predict/RawPredict API.']
  }
  const instances = json.instances
  if (!Array.isArray(instances) || instances.length === 0) return [400, 'instances is required.']
  for (const [index, instance] of instances.entries()) {
    if (!isRecord(instance) || typeof instance.content !== 'string') {
      return [400, `instances[${index}].content: a string is required.`]
    }
    const unknown = Object.keys(instance).find((field) => !INSTANCE_FIELDS.has(field))
    if (unknown) return [400, `instances[${index}]: unknown field "${unknown}".`]
  }
  if (ONE_INSTANCE_MODELS.test(model) && instances.length > 1) {
    return [400, `${model} supports only one instance per request.`]
  }
  return undefined
}

/** The status and Google-shaped body of a predict call for embeddings. */
export function embeddingPrediction(json: Json, model: string): [number, string] {
  const refused = refusal(json, model)
  if (refused) {
    const [status, message] = refused
    return [status, JSON.stringify({ error: { code: status, message, status: 'INVALID_ARGUMENT' } })]
  }
  const parameters = isRecord(json.parameters) ? json.parameters : {}
  const size =
    typeof parameters.outputDimensionality === 'number' ? parameters.outputDimensionality : DEFAULT_DIMENSIONS
  const texts = (json.instances as Json[]).map((instance) => String(instance.content))
  const predictions = texts.map((text, index) => ({
    embeddings: {
      statistics: { truncated: false, token_count: Math.max(1, words(text)) },
      values: Array.from({ length: size }, (_, at) => Number(((index + 1) / (at + 2)).toFixed(6))),
    },
  }))
  const characters = texts.reduce((sum, text) => sum + text.replace(/\s/g, '').length, 0)
  return [200, JSON.stringify({ predictions, metadata: { billableCharacterCount: characters } })]
}

export function handleVertexPredict(response: ServerResponse, json: Json, model: string): void {
  sendJson(response, ...embeddingPrediction(json, model))
}
