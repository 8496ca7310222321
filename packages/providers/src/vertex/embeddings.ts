/**
 * Embeddings on Vertex AI: the text embedding models (text-embedding-004 and -005,
 * text-multilingual-embedding-002, gemini-embedding-001) answer `:predict` under publisher google,
 * one instance per input text, one prediction per instance with its vector and the input's token
 * count (`statistics.token_count`), which is billed. OpenAI's `dimensions` is
 * `parameters.outputDimensionality`.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
 */
import type { ParsedResponse, RelayRequest, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { embeddingInputs } from '../gemini/request-body.ts'
import { embeddingListResponse, embeddingUsage, noEmbeddings } from '../shared/embedding-list.ts'
import { countOf, isRecord, type Json } from '../shared/json.ts'
import { readJsonObject } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { vertexError } from './errors.ts'

/** The predict request for an OpenAI embeddings request. */
export function vertexEmbedBody(json: Json): Json {
  const instances = embeddingInputs(json.input).map((content) => ({ content }))
  if (typeof json.dimensions !== 'number') return { instances }
  return { instances, parameters: { outputDimensionality: json.dimensions } }
}

/** A prediction's token count; the predict answer spells it in snake case, the REST reference in camel case. */
function tokenCount(embeddings: Json): number | undefined {
  const statistics = isRecord(embeddings.statistics) ? embeddings.statistics : {}
  return countOf(statistics.token_count ?? statistics.tokenCount)
}

/** The summed token counts, or undefined when a prediction has none (the gateway then counts). */
function predictionUsage(embeddings: Json[]): Usage | undefined {
  let total = 0
  for (const embedding of embeddings) {
    const count = tokenCount(embedding)
    if (count === undefined) return undefined
    total += count
  }
  return embeddingUsage(total)
}

export function parseVertexEmbeddings(
  response: UpstreamResponse,
  request: RelayRequest,
): ParsedResponse | UpstreamError {
  if (response.status < 200 || response.status >= 300) return vertexError(response)
  const read = readJsonObject(response.body)
  if (read.kind === 'error') return read
  const predictions = read.json.predictions
  if (!Array.isArray(predictions)) return noEmbeddings()
  const embeddings = predictions.map((prediction) =>
    isRecord(prediction) && isRecord(prediction.embeddings) ? prediction.embeddings : {},
  )
  const vectors = embeddings.map((embedding) => embedding.values)
  return embeddingListResponse(vectors, request, predictionUsage(embeddings))
}
