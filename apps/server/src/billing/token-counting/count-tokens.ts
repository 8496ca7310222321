import { encodingForModel, getEncoder } from './encoders.ts'

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

/** Tokens of `text` in the vocabulary of `model` (o200k for gpt-4o and later, else cl100k). */
export function countTextTokens(text: string, model: string, options?: TokenCountOptions): number {
  if (text.length === 0) return 0
  if (options?.approximate) return approximateTokenCount(text)
  return getEncoder(encodingForModel(model)).countTokens(text, PLAIN_TEXT)
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
