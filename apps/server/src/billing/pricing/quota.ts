import { DEFAULT_CACHED_PROMPT_RATIO } from '@one-api/contracts/pricing/price-view'
import {
  DALL_E_3_HD_OTHER_MULTIPLIER,
  DALL_E_3_HD_SQUARE_MULTIPLIER,
  DEFAULT_IMAGE_SIZE,
  IMAGE_SIZE_RATIOS,
} from '@one-api/contracts/pricing-defaults'

/**
 * Quota formulas. Quota is an integer; at ratio 1 one token costs one quota point ($0.002 / 1K tokens).
 * Every result is rounded up, so a request is never billed below its price.
 */

/**
 * Share of the input price charged for prompt tokens served from the provider's prompt cache (0.5,
 * shared with the console's price view). Pass the right value for other providers (gpt-4.1: 0.25,
 * gpt-5: 0.1, Anthropic cache reads: 0.1).
 */
export { DEFAULT_CACHED_PROMPT_RATIO }

export interface TextQuotaInput {
  promptTokens: number
  /**
   * Output tokens INCLUDING reasoning tokens. OpenAI's usage.completion_tokens already contains
   * completion_tokens_details.reasoning_tokens, so they must not be added again; adaptors of providers
   * that report thinking tokens separately (Gemini's thoughtsTokenCount) add them in before calling this.
   */
  completionTokens: number
  /**
   * How many of `promptTokens` were read from the prompt cache (OpenAI's
   * prompt_tokens_details.cached_tokens is a part of prompt_tokens). Clamped to promptTokens.
   */
  cachedTokens?: number
  modelRatio: number
  completionRatio: number
  groupRatio: number
  /** Price of a cached prompt token relative to an ordinary one; defaults to DEFAULT_CACHED_PROMPT_RATIO. */
  cachedRatio?: number
  /**
   * How many of `promptTokens` were written to the prompt cache (Anthropic's
   * cache_creation_input_tokens), priced at `cacheWriteRatio` (default 1: as ordinary input).
   */
  cacheWriteTokens?: number
  cacheWriteRatio?: number
}

/**
 * Final quota of a text request:
 * ceil((uncached prompt + cached × cachedRatio + cache writes × cacheWriteRatio
 *   + completion × completionRatio) × modelRatio × groupRatio).
 * A request with tokens on a priced model costs at least 1; a request with no tokens costs 0.
 */
export function computeTextQuota(input: TextQuotaInput): number {
  const prompt = tokenCount(input.promptTokens)
  const completion = tokenCount(input.completionTokens)
  const cached = Math.min(prompt, tokenCount(input.cachedTokens ?? 0))
  const written = Math.min(prompt - cached, tokenCount(input.cacheWriteTokens ?? 0))
  const cachedRatio = checkedRatio('cached ratio', input.cachedRatio ?? DEFAULT_CACHED_PROMPT_RATIO)
  const writeRatio = checkedRatio('cache write ratio', input.cacheWriteRatio ?? 1)
  const completionRatio = checkedRatio('completion ratio', input.completionRatio)
  const ratio = combinedRatio(input.modelRatio, input.groupRatio)
  if (prompt + completion === 0 || ratio === 0) return 0
  const weightedTokens =
    prompt - cached - written + cached * cachedRatio + written * writeRatio + completion * completionRatio
  return Math.max(1, ceilQuota(weightedTokens * ratio))
}

export interface ReservationInput {
  /** The PreConsumedQuota option (one-api default 500), a cushion for what the prompt estimate misses. */
  preConsumedQuota: number
  /** Local estimate of the prompt tokens. */
  promptTokens: number
  /** The request's max_tokens (or max_completion_tokens); absent or 0 when the client set none. */
  maxTokens?: number
  modelRatio: number
  completionRatio: number
  groupRatio: number
}

/**
 * Quota held while a request is in flight. With max tokens it is the worst case,
 * ceil((PreConsumedQuota + prompt + maxTokens × completionRatio) × modelRatio × groupRatio);
 * without, ceil((PreConsumedQuota + prompt) × modelRatio × groupRatio). One-api left out the
 * completion ratio, so a long answer could cost several times what was reserved.
 */
export function computeReservation(input: ReservationInput): number {
  const cushion = tokenCount(input.preConsumedQuota)
  const prompt = tokenCount(input.promptTokens)
  const maxTokens = tokenCount(input.maxTokens ?? 0)
  const completionRatio = checkedRatio('completion ratio', input.completionRatio)
  const ratio = combinedRatio(input.modelRatio, input.groupRatio)
  return ceilQuota((cushion + prompt + maxTokens * completionRatio) * ratio)
}

export interface ImageQuotaInput {
  /** The image model whose size table applies (dall-e-2, dall-e-3, ...). */
  model: string
  /** Requested size such as "1024x1792"; OpenAI's default 1024x1024 when absent. */
  size?: string
  /** "hd" costs more on dall-e-3. */
  quality?: string
  /** Images billed: the request's n, default 1 (Replicate always returns one image: pass 1 there). */
  n?: number
  modelRatio: number
  groupRatio: number
}

/**
 * Quota of an image generation: ceil(modelRatio × groupRatio × imageCostRatio × 1000) per image, × n.
 * An image model's ratio is its price per standard image in units of $0.002 / 1000, e.g.
 * dall-e-3 = 20 → 20 000 quota = $0.04 per standard 1024x1024 image.
 */
export function computeImageQuota(input: ImageQuotaInput): number {
  const ratio = combinedRatio(input.modelRatio, input.groupRatio)
  const perImage = ceilQuota(ratio * imageCostRatio(input.model, input.size, input.quality) * 1000)
  return perImage * tokenCount(input.n ?? 1)
}

/**
 * Price of one image relative to the model's standard image: the size ratio (unlisted sizes 1x), and on
 * dall-e-3 with quality "hd" ×2 for 1024x1024 or ×1.5 for the tall and wide sizes (OpenAI: $0.08 / $0.12).
 */
export function imageCostRatio(model: string, size = DEFAULT_IMAGE_SIZE, quality?: string): number {
  const sizes = Object.hasOwn(IMAGE_SIZE_RATIOS, model) ? IMAGE_SIZE_RATIOS[model] : undefined
  let ratio = sizes && Object.hasOwn(sizes, size) ? sizes[size] : 1
  if (model === 'dall-e-3' && quality === 'hd') {
    ratio *= size === '1024x1024' ? DALL_E_3_HD_SQUARE_MULTIPLIER : DALL_E_3_HD_OTHER_MULTIPLIER
  }
  return ratio
}

export interface SpeechQuotaInput {
  /** The text to be spoken. OpenAI bills TTS per character; characters are Unicode code points here. */
  input: string
  modelRatio: number
  groupRatio: number
}

/**
 * Quota of a text-to-speech request: ceil(characters × modelRatio × groupRatio); tts-1 (7.5) costs
 * 7 500 quota = $0.015 per 1 000 characters. One-api counted UTF-8 bytes (a Chinese character cost
 * 3x, which OpenAI does not charge) and rounded down; characters are counted here, and rounded up
 * as every quota of this gateway is.
 */
export function computeSpeechQuota(input: SpeechQuotaInput): number {
  let characters = 0
  for (const _ of input.input) characters += 1
  const ratio = combinedRatio(input.modelRatio, input.groupRatio)
  if (characters === 0 || ratio === 0) return 0
  return Math.max(1, ceilQuota(characters * ratio))
}

export interface TranscriptionQuotaInput {
  /** Tokens of the transcribed (or translated) text. */
  textTokens: number
  modelRatio: number
  groupRatio: number
}

/**
 * Quota of a transcription or translation: ceil(tokens of the text × modelRatio × groupRatio). whisper-1
 * (15) bills ~200 tokens a minute at $0.006. One-api charged the bare token count, ignoring both ratios.
 */
export function computeTranscriptionQuota(input: TranscriptionQuotaInput): number {
  const tokens = tokenCount(input.textTokens)
  const ratio = combinedRatio(input.modelRatio, input.groupRatio)
  if (tokens === 0 || ratio === 0) return 0
  return Math.max(1, ceilQuota(tokens * ratio))
}

/**
 * The ratios line of a consume log row, e.g. "model ratio 2.50, group ratio 1.00, completion ratio 4.00".
 * The completion part is left out for image and audio requests, which have none.
 */
export function describeRatios(modelRatio: number, groupRatio: number, completionRatio?: number): string {
  const parts = [`model ratio ${formatRatio(modelRatio)}`, `group ratio ${formatRatio(groupRatio)}`]
  if (completionRatio !== undefined) parts.push(`completion ratio ${formatRatio(completionRatio)}`)
  return parts.join(', ')
}

/**
 * Two decimals as one-api prints them, but never rounded away: gpt-4o-mini's 0.075 reads 0.075, not
 * 0.07, so the line shows the ratio the request was really billed at (to six significant digits).
 */
function formatRatio(ratio: number): string {
  const twoDecimals = ratio.toFixed(2)
  if (Number(twoDecimals) === ratio) return twoDecimals
  return String(Number(ratio.toPrecision(6)))
}

/**
 * Rounds up, ignoring the floating-point noise of the multiplications (0.075 × 1000 is
 * 75.00000000000001 in binary floating point and must cost 75, not 76).
 */
export function ceilQuota(value: number): number {
  if (value <= 0) return 0
  return Math.ceil(value - value * 1e-12)
}

/** Token counts from upstream usage are untrusted: anything but a non-negative number counts as 0. */
function tokenCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0
}

function checkedRatio(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`)
  return value
}

function combinedRatio(modelRatio: number, groupRatio: number): number {
  return checkedRatio('model ratio', modelRatio) * checkedRatio('group ratio', groupRatio)
}
