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
