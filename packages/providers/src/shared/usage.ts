import { countOf, isRecord } from './json.ts'
import { isJsonWhitespace, objectEnd } from './json-scan.ts'

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
  /**
   * Prompt tokens written to the provider's prompt cache (a subset of promptTokens, apart from
   * cachedTokens): Anthropic's cache_creation_input_tokens, priced above ordinary input.
   */
  readonly cacheWriteTokens?: number
  /**
   * The provider's price of a cached (read) prompt token relative to an ordinary one, when the
   * adaptor knows it (Anthropic: 0.1); the billing default otherwise.
   */
  readonly cacheReadRatio?: number
  /** The provider's price of a prompt token written to its cache, relative to an ordinary one. */
  readonly cacheWriteRatio?: number
  readonly totalTokens: number
  /** Set when the upstream reported no prompt count and none follows from its total: count locally. */
  readonly promptMissing?: true
  /** Set when the upstream reported no completion count and none follows from its total. */
  readonly completionMissing?: true
}

const detail = (details: unknown, field: string): number =>
  isRecord(details) ? (countOf(details[field]) ?? 0) : 0

/** Reads an upstream usage object; undefined when it is absent or carries no token counts at all. */
export function normaliseUsage(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined
  const prompt = countOf(raw.prompt_tokens) ?? countOf(raw.input_tokens)
  const completion = countOf(raw.completion_tokens) ?? countOf(raw.output_tokens)
  const total = countOf(raw.total_tokens)
  if (prompt === undefined && completion === undefined && total === undefined) return undefined
  // A count left out follows from the total when the other one is there (embeddings report only
  // prompt_tokens and total_tokens); otherwise it is marked missing, never read as 0.
  const promptTokens = prompt ?? (completion !== undefined ? remainder(total, completion) : undefined)
  const completionTokens = completion ?? (prompt !== undefined ? remainder(total, prompt) : undefined)
  const usage: { -readonly [K in keyof Usage]: Usage[K] } = {
    promptTokens: promptTokens ?? 0,
    completionTokens: completionTokens ?? 0,
    cachedTokens: detail(raw.prompt_tokens_details ?? raw.input_tokens_details, 'cached_tokens'),
    reasoningTokens: detail(raw.completion_tokens_details ?? raw.output_tokens_details, 'reasoning_tokens'),
    // Some providers omit the total.
    totalTokens: total ?? (promptTokens ?? 0) + (completionTokens ?? 0),
  }
  if (promptTokens === undefined) usage.promptMissing = true
  if (completionTokens === undefined) usage.completionMissing = true
  return usage
}

/** `total - part`, when there is a total and it is not below the part. */
const remainder = (total: number | undefined, part: number): number | undefined =>
  total !== undefined && total >= part ? total - part : undefined

/** True when the usage carries a count worth billing from (one-api treats total 0 as "no usage"). */
export const hasTokens = (usage: Usage | undefined): usage is Usage =>
  usage !== undefined && (usage.totalTokens > 0 || usage.promptTokens > 0 || usage.completionTokens > 0)

/** Integers of up to 15 digits are below 2^53, so adding up their digits is exact. */
const MAX_EXACT_DIGITS = 15

/** scanUsage's answer for a usage object it does not read itself: the caller parses it. */
export const NOT_SCANNED = Symbol('usage not scanned')

/** The keys whose values are kept, and their bytes to compare with. */
interface KeySet {
  names: readonly string[]
  bytes: readonly Buffer[]
}
const keySet = (names: string[]): KeySet => ({ names, bytes: names.map((name) => Buffer.from(name)) })
const TOP_LEVEL_KEYS = keySet([
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'prompt_tokens_details',
  'completion_tokens_details',
  'input_tokens_details',
  'output_tokens_details',
])
const DETAIL_KEYS = keySet(['cached_tokens', 'reasoning_tokens'])

/** Index of the key of `keys` whose bytes are `buffer[start, end)`, or -1. */
function keyIndex(buffer: Buffer, start: number, end: number, keys: KeySet): number {
  const length = end - start
  for (let which = 0; which < keys.bytes.length; which++) {
    const candidate = keys.bytes[which]!
    if (candidate.length !== length) continue
    let index = 0
    while (index < length && buffer[start + index] === candidate[index]) index += 1
    if (index === length) return which
  }
  return -1
}

/** The first position from `position` on that is not JSON whitespace (at most `end`). */
function skipWhitespace(buffer: Buffer, position: number, end: number): number {
  while (position < end && isJsonWhitespace(buffer[position])) position += 1
  return position
}

/**
 * Reads, in place, the JSON object opening at `open`, made only of non-negative integers, nulls
 * and (`nested` levels deep) objects of those: the shape of the usage objects OpenAI-compatible
 * upstreams send. Keeps the values of `keys` in `into`; returns the position just past the object.
 * NOT_SCANNED for anything else (a string, an array, a fraction, an escaped key, an object that
 * does not close before `end`).
 */
function scanCounts(
  buffer: Buffer,
  open: number,
  end: number,
  keys: KeySet,
  nested: number,
  into: Record<string, unknown>,
): number | typeof NOT_SCANNED {
  let position = skipWhitespace(buffer, open + 1, end)
  if (position < end && buffer[position] === 0x7d) return position + 1
  while (position < end) {
    if (buffer[position] !== 0x22) return NOT_SCANNED
    const keyStart = position + 1
    let keyEnd = keyStart
    while (keyEnd < end && buffer[keyEnd] !== 0x22 && buffer[keyEnd] !== 0x5c) keyEnd += 1
    if (keyEnd >= end || buffer[keyEnd] !== 0x22) return NOT_SCANNED
    const which = keyIndex(buffer, keyStart, keyEnd, keys)
    position = skipWhitespace(buffer, keyEnd + 1, end)
    if (position >= end || buffer[position] !== 0x3a) return NOT_SCANNED
    position = skipWhitespace(buffer, position + 1, end)
    const first = position < end ? buffer[position]! : -1
    let value: unknown
    if (first >= 0x30 && first <= 0x39) {
      const digitsStart = position
      let number = 0
      while (position < end && buffer[position]! >= 0x30 && buffer[position]! <= 0x39) {
        number = number * 10 + buffer[position]! - 0x30
        position += 1
      }
      // Past 15 digits the sum is no longer exact; JSON.parse rounds such a number correctly.
      if (position - digitsStart > MAX_EXACT_DIGITS) return NOT_SCANNED
      value = number
    } else if (
      first === 0x6e &&
      position + 4 <= end &&
      buffer[position + 1] === 0x75 &&
      buffer[position + 2] === 0x6c &&
      buffer[position + 3] === 0x6c
    ) {
      position += 4
      value = null
    } else if (first === 0x7b && nested > 0) {
      const inner: Record<string, unknown> = {}
      const innerEnd = scanCounts(buffer, position, end, DETAIL_KEYS, nested - 1, inner)
      if (innerEnd === NOT_SCANNED) return NOT_SCANNED
      position = innerEnd
      value = inner
    } else {
      return NOT_SCANNED
    }
    // The last of a repeated key wins, as in JSON.parse.
    if (which !== -1) into[keys.names[which]!] = value
    position = skipWhitespace(buffer, position, end)
    if (position >= end) return NOT_SCANNED
    if (buffer[position] === 0x7d) return position + 1
    // A fraction or an exponent ends up here too.
    if (buffer[position] !== 0x2c) return NOT_SCANNED
    position = skipWhitespace(buffer, position + 1, end)
  }
  return NOT_SCANNED
}

/**
 * The usage object opening at `buffer[open]` (its `{`), read without JSON.parse: the same
 * answer as `normaliseUsage(JSON.parse(<the object>))`, for the usual shape of usage objects,
 * at a fraction of the cost. NOT_SCANNED when the object has another shape or does not close
 * before `end`: the caller parses it then.
 */
export function scanUsage(buffer: Buffer, open: number, end: number): Usage | undefined | typeof NOT_SCANNED {
  const raw: Record<string, unknown> = {}
  if (buffer[open] !== 0x7b) return NOT_SCANNED
  return scanCounts(buffer, open, end, TOP_LEVEL_KEYS, 1, raw) === NOT_SCANNED
    ? NOT_SCANNED
    : normaliseUsage(raw)
}

/** readUsageObject's answer for a usage object that is cut off or is not valid JSON. */
export const UNREADABLE = Symbol('usage unreadable')

/**
 * The usage object opening at `buffer[open]`, read in place when it has the usual shape
 * (scanUsage), otherwise cut out and parsed: normalised, undefined when it carries no counts, or
 * UNREADABLE when it does not close before `end` or is not JSON.
 */
export function readUsageObject(
  buffer: Buffer,
  open: number,
  end: number,
): Usage | undefined | typeof UNREADABLE {
  const scanned = scanUsage(buffer, open, end)
  if (scanned !== NOT_SCANNED) return scanned
  const close = objectEnd(buffer, open, end)
  if (close === -1) return UNREADABLE
  try {
    return normaliseUsage(JSON.parse(buffer.toString('utf8', open, close)))
  } catch {
    return UNREADABLE
  }
}
