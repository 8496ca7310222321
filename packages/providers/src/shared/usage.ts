/**
 * Normalised token usage. OpenAI reports `prompt_tokens`/`completion_tokens` on chat, completions
 * and embeddings, and `input_tokens`/`output_tokens` on images (gpt-image-1), audio transcription
 * and the Responses API; both spellings are accepted.
 * https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export interface Usage {
  readonly promptTokens: number
  readonly completionTokens: number
  /** Prompt tokens served from the provider's prompt cache (a subset of promptTokens). */
  readonly cachedTokens: number
  /** Completion tokens spent on hidden reasoning (a subset of completionTokens). */
  readonly reasoningTokens: number
  readonly totalTokens: number
}

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const detail = (details: unknown, field: string): number =>
  isRecord(details) ? (count(details[field]) ?? 0) : 0

/** Reads an upstream usage object; undefined when it is absent or carries no token counts at all. */
export function normaliseUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined
  const prompt = count(raw.prompt_tokens) ?? count(raw.input_tokens)
  const completion = count(raw.completion_tokens) ?? count(raw.output_tokens)
  const total = count(raw.total_tokens)
  if (prompt === undefined && completion === undefined && total === undefined) return undefined
  const promptTokens = prompt ?? 0
  const completionTokens = completion ?? 0
  return {
    promptTokens,
    completionTokens,
    cachedTokens: detail(raw.prompt_tokens_details ?? raw.input_tokens_details, 'cached_tokens'),
    reasoningTokens: detail(raw.completion_tokens_details ?? raw.output_tokens_details, 'reasoning_tokens'),
    // Embeddings report only prompt_tokens and total_tokens; some providers omit the total.
    totalTokens: total ?? promptTokens + completionTokens,
  }
}

/** True when the usage carries a count worth billing from (one-api treats total 0 as "no usage"). */
export const hasTokens = (usage: Usage | undefined): usage is Usage =>
  usage !== undefined && (usage.totalTokens > 0 || usage.promptTokens > 0 || usage.completionTokens > 0)
