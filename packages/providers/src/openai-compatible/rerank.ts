/**
 * Rerank answers of OpenAI-compatible servers that offer `/v1/rerank` (Jina's, vLLM's and others of
 * the same shape): passed on as they came, their usage read. Jina reports `usage.total_tokens`
 * (older versions `prompt_tokens` too), vLLM `usage.total_tokens`: all of it is input.
 * https://jina.ai/reranker/
 * https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html#re-rank-api
 */
import type { ParsedResponse, UpstreamError, UpstreamResponse } from '../adaptor.ts'
import { countOf, isRecord } from '../shared/json.ts'
import { localError, mapUpstreamError, readJsonObject } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

/** A rerank's usage: the tokens read (prompt tokens, else the total), none generated. */
export function rerankUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined
  const tokens = countOf(raw.prompt_tokens) ?? countOf(raw.input_tokens) ?? countOf(raw.total_tokens)
  if (!tokens) return undefined
  return {
    promptTokens: tokens,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    totalTokens: tokens,
  }
}

export function parseRerankResponse(response: UpstreamResponse): ParsedResponse | UpstreamError {
  const { status, headers, body } = response
  if (status < 200 || status >= 300) return mapUpstreamError(status, body, headers)
  const read = readJsonObject(body, 'invalid_upstream_response')
  if (read.kind === 'error') return read
  const json = read.json
  if (isRecord(json.error)) return mapUpstreamError(status, body, headers)
  if (!Array.isArray(json.results)) {
    return localError(502, 'invalid_upstream_response', 'upstream returned no results in its answer', {
      retryable: true,
      type: 'upstream_error',
    })
  }
  return { kind: 'response', body, usage: rerankUsage(json.usage) }
}
