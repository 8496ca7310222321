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

/**
 * hasKeyWithValue on the bytes `buffer[start, end)` without decoding them: true when some
 * `quotedKey` (e.g. Buffer.from('"usage"')) is followed by ':' and a value whose first byte is
 * `firstByte`. The same JSON property applies: an unescaped quoted key can only be a key.
 */
export function hasKeyWithValueIn(
  buffer: Buffer,
  start: number,
  end: number,
  quotedKey: Buffer,
  firstByte: number,
): boolean {
  let index = buffer.indexOf(quotedKey, start)
  while (index !== -1 && index < end) {
    let position = index + quotedKey.length
    while (position < end && isWhitespaceByte(buffer[position])) position += 1
    if (buffer[position] === 0x3a) {
      position += 1
      while (position < end && isWhitespaceByte(buffer[position])) position += 1
      if (position < end && buffer[position] === firstByte) return true
    }
    index = buffer.indexOf(quotedKey, index + quotedKey.length)
  }
  return false
}

/**
 * stringValuesOf on the bytes `buffer[start, end)`: only the string values themselves are decoded
 * (with JSON escapes resolved), not the text around them.
 */
export function stringValuesIn(buffer: Buffer, start: number, end: number, quotedKey: Buffer): string[] {
  const values: string[] = []
  let index = buffer.indexOf(quotedKey, start)
  while (index !== -1 && index < end) {
    let position = index + quotedKey.length
    while (position < end && isWhitespaceByte(buffer[position])) position += 1
    let next = position
    if (buffer[position] === 0x3a) {
      position += 1
      while (position < end && isWhitespaceByte(buffer[position])) position += 1
      next = position
      if (position < end && buffer[position] === 0x22) {
        let close = position + 1
        let escaped = false
        while (close < end && buffer[close] !== 0x22) {
          if (buffer[close] === 0x5c) {
            escaped = true
            close += 2
          } else {
            close += 1
          }
        }
        if (close >= end) return values // truncated: ignore the unterminated string
        if (!escaped) {
          values.push(buffer.toString('utf8', position + 1, close))
        } else {
          const raw = buffer.toString('utf8', position, close + 1)
          try {
            values.push(JSON.parse(raw) as string)
          } catch {
            values.push(raw.slice(1, -1))
          }
        }
        next = close + 1
      }
    }
    index = buffer.indexOf(quotedKey, Math.max(next, index + quotedKey.length))
  }
  return values
}
