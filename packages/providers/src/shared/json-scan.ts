/**
 * Cheap looks into serialised JSON without parsing it, for the relay's hot path:
 * - objectsHeldBy finds where objects held by given keys (usage, error) start, so only events
 *   and replies that have one are read;
 * - stringValuesOf reads the string values of some keys (the generated text), stepping over every
 *   string whole, so text inside a value can never pass for a key.
 */

export const isJsonWhitespace = (code: number | undefined): boolean =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d

function sameBytes(buffer: Buffer, start: number, length: number, word: Buffer): boolean {
  if (length !== word.length) return false
  for (let index = 0; index < length; index++) if (buffer[start + index] !== word[index]) return false
  return true
}

function isOneOf(buffer: Buffer, start: number, length: number, words: readonly Buffer[]): boolean {
  for (const word of words) if (sameBytes(buffer, start, length, word)) return true
  return false
}

/** Index of the closing quote of the string opening at `open`, or -1 when it is cut off. */
function stringEnd(buffer: Buffer, open: number, end: number): number {
  let position = open + 1
  while (position < end) {
    const byte = buffer[position]
    if (byte === 0x22) return position
    position += byte === 0x5c ? 2 : 1
  }
  return -1
}

/** Index just past the '}' closing the object opening at `open`, or -1 when it is cut off. */
export function objectEnd(buffer: Buffer, open: number, end: number): number {
  let depth = 0
  let position = open
  while (position < end) {
    const byte = buffer[position]
    if (byte === 0x22) {
      position = stringEnd(buffer, position, end)
      if (position === -1) return -1
    } else if (byte === 0x7b) {
      depth += 1
    } else if (byte === 0x7d) {
      depth -= 1
      if (depth === 0) return position + 1
    }
    position += 1
  }
  return -1
}

/**
 * The decoded string values of every key among `keys` in the JSON bytes `buffer[start, end)`, in
 * order.
 */
export function stringValuesOf(
  buffer: Buffer,
  start: number,
  end: number,
  keys: readonly Buffer[],
): string[] {
  const values: string[] = []
  let position = start
  while (position < end) {
    if (buffer[position] !== 0x22) {
      position += 1
      continue
    }
    const close = stringEnd(buffer, position, end)
    if (close === -1) return values
    let next = close + 1
    while (next < end && isJsonWhitespace(buffer[next])) next += 1
    if (buffer[next] !== 0x3a) {
      position = close + 1 // a string value
      continue
    }
    next += 1
    while (next < end && isJsonWhitespace(buffer[next])) next += 1
    if (buffer[next] === 0x22 && isOneOf(buffer, position + 1, close - position - 1, keys)) {
      const valueEnd = stringEnd(buffer, next, end)
      if (valueEnd === -1) return values
      values.push(decodeJsonString(buffer, next, valueEnd))
      next = valueEnd + 1
    }
    position = next
  }
  return values
}

/** The JSON string whose quotes are at `open` and `close`, escapes resolved. */
function decodeJsonString(buffer: Buffer, open: number, close: number): string {
  let escaped = false
  for (let index = open + 1; index < close && !escaped; index++) escaped = buffer[index] === 0x5c
  if (!escaped) return buffer.toString('utf8', open + 1, close)
  const raw = buffer.toString('utf8', open, close + 1)
  try {
    return JSON.parse(raw) as string
  } catch {
    return raw.slice(1, -1)
  }
}

/** Index of the last non-whitespace character before `index` (-1 if none). */
export function skipBackOverWhitespace(text: string, index: number): number {
  let position = index - 1
  while (position >= 0 && isJsonWhitespace(text.charCodeAt(position))) position -= 1
  return position
}

/**
 * Whether the value starting at `valueAt` belongs to a key written `"<key>"`: looks back over
 * the colon and the key's quotes. A match inside a string value is impossible in valid JSON (its
 * quotes would be escaped), so callers use it as a cheap filter before a closer look. The quote
 * opening the key must not be escaped: `"a\"usage":` is the key `a"usage`.
 */
export function keyBefore(text: string, valueAt: number, key: string): boolean {
  const colon = skipBackOverWhitespace(text, valueAt)
  if (text.charCodeAt(colon) !== 0x3a) return false
  const closingQuote = skipBackOverWhitespace(text, colon)
  if (text.charCodeAt(closingQuote) !== 0x22) return false
  const keyStart = closingQuote - key.length
  if (text.charCodeAt(keyStart - 1) !== 0x22 || !text.startsWith(key, keyStart)) return false
  let backslashes = 0
  while (text.charCodeAt(keyStart - 2 - backslashes) === 0x5c) backslashes += 1
  return backslashes % 2 === 0
}

/**
 * Where objects held by `key` start in JSON text read as latin1 (one character per byte, so
 * positions are byte offsets): each `{` preceded by `"key":`. Searching for one character and
 * looking back is several times cheaper than searching for the key, whose opening quote is the
 * commonest character of JSON, or than stepping over every byte.
 */
export function objectsHeldBy(text: string, keys: readonly string[]): number[][] {
  const found: number[][] = keys.map(() => [])
  for (let index = text.indexOf('{'); index !== -1; index = text.indexOf('{', index + 1)) {
    for (let which = 0; which < keys.length; which++) {
      if (keyBefore(text, index, keys[which]!)) found[which]!.push(index)
    }
  }
  return found
}
