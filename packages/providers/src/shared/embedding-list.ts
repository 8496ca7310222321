/**
 * OpenAI's embeddings answer built from an upstream's vectors: `{object: 'list', data, model,
 * usage}`, each vector as numbers, or as the base64 of its float32 little-endian bytes when the
 * client asked `encoding_format: 'base64'` (what the official OpenAI SDKs ask by default).
 * https://platform.openai.com/docs/api-reference/embeddings/create
 */
import type { ParsedResponse, RelayRequest } from '../adaptor.ts'
import { localError } from './upstream-error.ts'
import type { Usage } from './usage.ts'

const base64Vector = (values: number[]): string =>
  Buffer.from(new Float32Array(values).buffer).toString('base64')

const numbers = (vector: unknown): number[] =>
  Array.isArray(vector) ? vector.filter((value): value is number => typeof value === 'number') : []

/** The usage of an embeddings answer: prompt tokens only. */
export const embeddingUsage = (promptTokens: number): Usage => ({
  promptTokens,
  completionTokens: 0,
  cachedTokens: 0,
  reasoningTokens: 0,
  totalTokens: promptTokens,
})

/** The client's answer for `vectors`; `usage` undefined leaves the count to the gateway. */
export function embeddingListResponse(
  vectors: readonly unknown[],
  request: RelayRequest,
  usage: Usage | undefined,
  model = request.mappedModel,
): ParsedResponse {
  const base64 = request.json?.encoding_format === 'base64'
  const prompt = usage?.promptTokens ?? 0
  const list = {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? base64Vector(numbers(vector)) : numbers(vector),
    })),
    model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  }
  return { kind: 'response', body: Buffer.from(JSON.stringify(list)), usage }
}

export const noEmbeddings = () =>
  localError(502, 'invalid_upstream_response', 'upstream returned no embeddings', {
    retryable: true,
    type: 'upstream_error',
  })
