/**
 * Cheap look-ups in a serialised JSON object without parsing it. They rely on one property of
 * JSON: inside a string value every '"' is escaped, so an unescaped `"key"` followed by ':' can
 * only be an object key. They are used on the streaming hot path to decide whether a chunk needs
 * a full JSON.parse at all.
 */

const isWhitespace = (code: number): boolean =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d

function skipWhitespace(text: string, index: number): number {
  let position = index
  while (position < text.length && isWhitespace(text.charCodeAt(position))) position += 1
  return position
}

/** Index just after `"key":` (and any whitespace), or -1. Starts looking at `from`. */
function findValueStart(text: string, quotedKey: string, from: number): number {
  let index = text.indexOf(quotedKey, from)
  while (index !== -1) {
    const afterKey = skipWhitespace(text, index + quotedKey.length)
    if (text.charCodeAt(afterKey) === 0x3a) return skipWhitespace(text, afterKey + 1)
    index = text.indexOf(quotedKey, index + quotedKey.length)
  }
  return -1
}

/** True when some key `key` has a value starting with `firstCharacter` (e.g. '{' for an object). */
export function hasKeyWithValue(text: string, key: string, firstCharacter: string): boolean {
  const quotedKey = `"${key}"`
  let from = 0
  for (;;) {
    const valueStart = findValueStart(text, quotedKey, from)
    if (valueStart === -1) return false
    if (text[valueStart] === firstCharacter) return true
    from = valueStart
  }
}

/** The decoded values of every string-valued `key` in the text, in order of appearance. */
export function stringValuesOf(text: string, key: string): string[] {
  const quotedKey = `"${key}"`
  const values: string[] = []
  let from = 0
  for (;;) {
    const valueStart = findValueStart(text, quotedKey, from)
    if (valueStart === -1) return values
    from = valueStart
    if (text.charCodeAt(valueStart) !== 0x22) continue
    let position = valueStart + 1
    let escaped = false
    while (position < text.length) {
      const code = text.charCodeAt(position)
      if (code === 0x5c) escaped = true
      else if (code === 0x22) break
      position += code === 0x5c ? 2 : 1
    }
    if (position >= text.length) return values // truncated text: ignore the unterminated string
    const raw = text.slice(valueStart + 1, position)
    if (!escaped) values.push(raw)
    else {
      try {
        values.push(JSON.parse(`"${raw}"`) as string)
      } catch {
        values.push(raw)
      }
    }
    from = position + 1
  }
}

/**
 * The text of the last object-valued `key` (from its '{' to the matching '}'), or undefined.
 * Braces inside string values are skipped. Used to read a reply's `usage` without parsing the
 * whole reply, which for embeddings is mostly numbers nobody here needs.
 */
export function lastObjectValueOf(text: string, key: string): string | undefined {
  const quotedKey = `"${key}"`
  let found = -1
  let from = 0
  for (;;) {
    const valueStart = findValueStart(text, quotedKey, from)
    if (valueStart === -1) break
    if (text.charCodeAt(valueStart) === 0x7b) found = valueStart
    from = valueStart
  }
  if (found === -1) return undefined
  let depth = 0
  let position = found
  while (position < text.length) {
    const code = text.charCodeAt(position)
    if (code === 0x22) {
      // Skip a string value, escapes included.
      position += 1
      while (position < text.length && text.charCodeAt(position) !== 0x22) {
        position += text.charCodeAt(position) === 0x5c ? 2 : 1
      }
    } else if (code === 0x7b) {
      depth += 1
    } else if (code === 0x7d) {
      depth -= 1
      if (depth === 0) return text.slice(found, position + 1)
    }
    position += 1
  }
  return undefined
}

const isWhitespaceByte = (byte: number | undefined): boolean =>
  byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d

/** What the stream transformer needs to know about one event's JSON payload. */
export interface PayloadScan {
  /** Some `usage` key holds an object. */
  usageObject: boolean
  /** Some `error` key holds an object. */
  errorObject: boolean
  /** The decoded string values of every `textKey` key, in order. */
  texts: string[]
}

const USAGE = Buffer.from('usage')
const ERROR = Buffer.from('error')

function sameBytes(buffer: Buffer, start: number, length: number, word: Buffer): boolean {
  if (length !== word.length) return false
  for (let index = 0; index < length; index++) if (buffer[start + index] !== word[index]) return false
  return true
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

/**
 * One pass over the JSON bytes `buffer[start, end)`, without decoding them: strings are stepped
 * over whole, so text inside values can never pass for a key. Cheaper than searching the bytes once
 * per key, and only the wanted string values are decoded.
 */
export function scanPayload(buffer: Buffer, start: number, end: number, textKey: Buffer): PayloadScan {
  const scan: PayloadScan = { usageObject: false, errorObject: false, texts: [] }
  let position = start
  while (position < end) {
    if (buffer[position] !== 0x22) {
      position += 1
      continue
    }
    const close = stringEnd(buffer, position, end)
    if (close === -1) return scan
    let next = close + 1
    while (next < end && isWhitespaceByte(buffer[next])) next += 1
    if (buffer[next] !== 0x3a) {
      position = close + 1 // a string value
      continue
    }
    next += 1
    while (next < end && isWhitespaceByte(buffer[next])) next += 1
    const keyStart = position + 1
    const keyLength = close - keyStart
    const first = buffer[next]
    if (first === 0x7b && sameBytes(buffer, keyStart, keyLength, USAGE)) scan.usageObject = true
    else if (first === 0x7b && sameBytes(buffer, keyStart, keyLength, ERROR)) scan.errorObject = true
    else if (first === 0x22 && sameBytes(buffer, keyStart, keyLength, textKey)) {
      const valueEnd = stringEnd(buffer, next, end)
      if (valueEnd === -1) return scan
      scan.texts.push(decodeJsonString(buffer, next, valueEnd))
      next = valueEnd + 1
    }
    position = next
  }
  return scan
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
