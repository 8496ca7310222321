import type { Usage } from '@one-api/providers'

/**
 * An upstream's usage report is untrusted input: a buggy or hostile upstream answering
 * `completion_tokens: 9e18` must not drive a balance to -9e18, leave floats in integer columns or
 * overflow a bigint. Counts are whole, non-negative numbers (normaliseUsage drops the rest, which
 * are then counted locally) and bounded by what the request could have produced.
 */

/** The most tokens of one kind one request is billed for when the request sets no tighter bound. */
export const MAX_BILLED_TOKENS = 10_000_000
/**
 * The most quota one request can cost or reserve, whatever the ratios an administrator set: sums of
 * many such charges stay exact doubles (below 2^53) and far inside a signed 64-bit column.
 */
export const MAX_REQUEST_QUOTA = 1_000_000_000_000

/** What the request allows: its max tokens (all its choices), and the local prompt estimate. */
export interface UsageLimits {
  maxTokens?: number
  promptEstimate: number
}

export interface BoundedUsage {
  usage: Usage | undefined
  /** Set when a count was cut down: what was reported and what is billed, for the log. */
  clamped?: string
}

/**
 * The usage with each count at most its bound: the completion at most the request's max tokens
 * plus its prompt (generous: some providers count reasoning or cached tokens beyond max tokens),
 * else MAX_BILLED_TOKENS; the prompt at most MAX_BILLED_TOKENS (images and audio in a prompt make a
 * local estimate no bound).
 */
export function boundUsage(usage: Usage | undefined, limits: UsageLimits): BoundedUsage {
  if (!usage) return { usage }
  const completionBound =
    limits.maxTokens !== undefined && limits.maxTokens > 0
      ? Math.min(MAX_BILLED_TOKENS, wholeCount(limits.maxTokens) + wholeCount(limits.promptEstimate))
      : MAX_BILLED_TOKENS
  const promptTokens = Math.min(wholeCount(usage.promptTokens), MAX_BILLED_TOKENS)
  const completionTokens = Math.min(wholeCount(usage.completionTokens), completionBound)
  const unchanged = promptTokens === usage.promptTokens && completionTokens === usage.completionTokens
  if (unchanged && Number.isSafeInteger(usage.totalTokens) && usage.totalTokens <= 2 * MAX_BILLED_TOKENS) {
    return { usage }
  }
  const parts: string[] = []
  if (promptTokens !== usage.promptTokens) parts.push(`${usage.promptTokens} prompt tokens`)
  if (completionTokens !== usage.completionTokens) parts.push(`${usage.completionTokens} completion tokens`)
  const billed = `${promptTokens} prompt and ${completionTokens} completion tokens`
  return {
    usage: {
      ...usage,
      promptTokens,
      completionTokens,
      cachedTokens: Math.min(wholeCount(usage.cachedTokens), promptTokens),
      reasoningTokens: Math.min(wholeCount(usage.reasoningTokens), completionTokens),
      totalTokens: Math.min(wholeCount(usage.totalTokens), promptTokens + completionTokens),
    },
    clamped:
      parts.length > 0
        ? `the upstream reported ${parts.join(' and ')}, more than the request allows: billed ${billed}`
        : undefined,
  }
}

/** A quota amount as the ledger stores it: a whole number in [0, MAX_REQUEST_QUOTA]. */
export function safeQuota(value: number): number {
  if (Number.isNaN(value) || value <= 0) return 0
  return Math.min(Math.ceil(value), MAX_REQUEST_QUOTA)
}

function wholeCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0
}
