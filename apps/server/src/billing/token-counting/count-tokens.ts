import type { GptEncoding } from 'gpt-tokenizer/GptEncoding'
import { type EncodingName, encodingForModel, getEncoder } from './encoders.ts'

export interface TokenCountOptions {
  /**
   * The ApproximateTokenEnabled option: estimate floor(UTF-8 bytes × 0.38) instead of running the
   * tokenizer, as one-api does.
   */
  approximate?: boolean
  /** What is left of one request's exact counting (see CountBudget); unbounded without one. */
  budget?: CountBudget
}

/**
 * Characters of one request's text that are tokenized exactly: about 250,000 tokens, more than
 * most context windows, and about 20 ms of tokenizing. A request carrying more (the body may be
 * 64 MB) has the rest estimated from what was counted, so no request can hold the event loop for
 * seconds. Texts already counted (a conversation's earlier turns) cost nothing.
 */
const EXACT_COUNT_CHARACTERS = 1_000_000
/** Below this many exactly counted characters, an estimate is scaled from one-api's formula instead. */
const MIN_SAMPLE_CHARACTERS = 1_000

export class CountBudget {
  constructor(public remaining = EXACT_COUNT_CHARACTERS) {}
}

// Special-token markers such as "<|endoftext|>" in user text are ordinary characters to bill, not
// control tokens: without this the tokenizer would throw on them.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }

/** One-api's ApproximateTokenEnabled estimate: floor(UTF-8 byte length × 0.38). */
export function approximateTokenCount(text: string): number {
  return Math.floor(Buffer.byteLength(text, 'utf8') * 0.38)
}

/**
 * Counts of recently seen texts, per vocabulary. A chat client resends the whole conversation with
 * every turn, so without this each message would be tokenized again on every later turn; with it,
 * once. Bounded by the characters it holds: when full it starts over (cheaper than an LRU, and a
 * conversation in progress refills it at once).
 */
const CACHE_CHARACTER_BUDGET = 4_000_000
class CountCache {
  private counts = new Map<string, number>()
  private characters = 0

  get(text: string): number | undefined {
    return this.counts.get(text)
  }

  remember(text: string, count: number): void {
    if (this.characters + text.length > CACHE_CHARACTER_BUDGET) {
      this.counts = new Map()
      this.characters = 0
    }
    if (text.length <= CACHE_CHARACTER_BUDGET / 4) {
      this.counts.set(text, count)
      this.characters += text.length
    }
  }
}
const caches = new Map<EncodingName, CountCache>()
const encodingOfModel = new Map<string, EncodingName>()

/** Tokens of `text` in the vocabulary of `model` (o200k for gpt-4o and later, else cl100k). */
export function countTextTokens(text: string, model: string, options?: TokenCountOptions): number {
  if (text.length === 0) return 0
  if (options?.approximate) return approximateTokenCount(text)
  let encoding = encodingOfModel.get(model)
  if (!encoding) {
    encoding = encodingForModel(model)
    if (encodingOfModel.size < 10_000) encodingOfModel.set(model, encoding)
  }
  let cache = caches.get(encoding)
  if (!cache) {
    cache = new CountCache()
    caches.set(encoding, cache)
  }
  const known = cache.get(text)
  if (known !== undefined) return known
  const encoder = getEncoder(encoding)
  const budget = options?.budget
  if (budget && text.length > budget.remaining) return estimateBeyondBudget(encoder, text, budget)
  if (budget) budget.remaining -= text.length
  const count = countExactly(encoder, text)
  cache.remember(text, count)
  return count
}

/** Counts the part of `text` the budget allows and scales that count to the whole text. */
function estimateBeyondBudget(encoder: GptEncoding, text: string, budget: CountBudget): number {
  const sample = text.slice(0, budget.remaining)
  budget.remaining = 0
  if (sample.length < MIN_SAMPLE_CHARACTERS) return approximateTokenCount(text)
  return Math.ceil((countExactly(encoder, sample) * text.length) / sample.length)
}

/**
 * Runs of one kind of character (letters, punctuation or whitespace) that the tokenizer would take
 * as one piece. Its byte-pair merging is quadratic in a piece's length: 8,000 Chinese characters
 * without punctuation took 0.36 s, 40 MB of one letter would take days. Such runs are counted in
 * slices of RUN_SLICE characters instead, which changes the count by a token per slice at most
 * (none for a repeated Latin letter: its tokens are 2, 4 or 8 letters long).
 */
const LONG_RUN_LENGTH = 128
const LONG_RUN = new RegExp(
  `[\\p{L}\\p{M}]{${LONG_RUN_LENGTH},}|[^\\s\\p{L}\\p{M}\\p{N}]{${LONG_RUN_LENGTH},}|\\s{${LONG_RUN_LENGTH},}`,
  'gu',
)
const RUN_SLICE = 64

function countExactly(encoder: GptEncoding, text: string): number {
  if (text.length < LONG_RUN_LENGTH) return encoder.countTokens(text, PLAIN_TEXT)
  let total = 0
  let start = 0
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > start) total += encoder.countTokens(text.slice(start, match.index), PLAIN_TEXT)
    total += countRunInSlices(encoder, match[0])
    start = match.index + match[0].length
  }
  if (start === 0) return encoder.countTokens(text, PLAIN_TEXT)
  if (start < text.length) total += encoder.countTokens(text.slice(start), PLAIN_TEXT)
  return total
}

function countRunInSlices(encoder: GptEncoding, run: string): number {
  let total = 0
  for (let start = 0; start < run.length; ) {
    let end = Math.min(start + RUN_SLICE, run.length)
    // Never between the two halves of a character outside the BMP (most CJK extension letters).
    if (end < run.length && isLowSurrogate(run.charCodeAt(end))) end += 1
    total += encoder.countTokens(run.slice(start, end), PLAIN_TEXT)
    start = end
  }
  return total
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/**
 * Prompt tokens of a legacy /v1/completions request. `prompt` may be a string, several strings (each is
 * a prompt and each is billed), or pre-tokenized input (an array of token ids, or several).
 */
export function countCompletionPromptTokens(
  prompt: unknown,
  model: string,
  options?: TokenCountOptions,
): number {
  return countLooseInput(prompt, model, options)
}

/**
 * Input tokens of an embeddings or moderations request: a string, an array of strings, token ids
 * (number[] or number[][]), or moderation multi-modal parts ({type: "text", text}); images count 0.
 */
export function countInputTokens(input: unknown, model: string, options?: TokenCountOptions): number {
  return countLooseInput(input, model, options)
}

function countLooseInput(
  input: unknown,
  model: string,
  options: TokenCountOptions | undefined,
  depth = 0,
): number {
  if (typeof input === 'string') return countTextTokens(input, model, options)
  if (!Array.isArray(input)) {
    if (isTextPart(input)) return countTextTokens(input.text, model, options)
    return 0
  }
  // A flat array of numbers is one pre-tokenized input: its length is its token count.
  if (input.length > 0 && input.every((item) => typeof item === 'number')) return input.length
  // The APIs accept one level of batching (string[], number[][]); deeper nesting is not valid input.
  if (depth > 0) return 0
  let total = 0
  for (const item of input) total += countLooseInput(item, model, options, depth + 1)
  return total
}

function isTextPart(value: unknown): value is { text: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'text' &&
    typeof (value as { text?: unknown }).text === 'string'
  )
}
