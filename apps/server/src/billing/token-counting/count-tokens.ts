import { type EncodingName, encodingForModel, getEncoder } from './encoders.ts'

export interface TokenCountOptions {
  /**
   * The ApproximateTokenEnabled option: estimate floor(UTF-8 bytes × 0.38) instead of running the
   * tokenizer, as one-api does.
   */
  approximate?: boolean
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

  count(text: string, tokenize: (text: string) => number): number {
    const known = this.counts.get(text)
    if (known !== undefined) return known
    const count = tokenize(text)
    if (this.characters + text.length > CACHE_CHARACTER_BUDGET) {
      this.counts = new Map()
      this.characters = 0
    }
    if (text.length <= CACHE_CHARACTER_BUDGET / 4) {
      this.counts.set(text, count)
      this.characters += text.length
    }
    return count
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
  const encoder = getEncoder(encoding)
  return cache.count(text, (value) => encoder.countTokens(value, PLAIN_TEXT))
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
