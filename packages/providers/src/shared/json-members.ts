/**
 * Edits of a JSON object's top-level members on its bytes, leaving every other byte as the client
 * sent it. Parsing and re-serialising a body changed what JSON numbers cannot hold exactly in a
 * double (a `seed` of 9007199254740993 reached the upstream as ...992) and respelled others
 * (`2.50` as `2.5`, `1e3` as `1000`).
 */
import { isJsonWhitespace } from './json-scan.ts'

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** A top-level member: where its key starts and where its value lies. */
interface MemberSpan {
  key: string
  valueStart: number
  valueEnd: number
}

function skipWhitespace(body: Buffer, position: number): number {
  while (isJsonWhitespace(body[position])) position += 1
  return position
}

/** Index just past the string opening at `open`, or -1 when it is cut off. */
function pastString(body: Buffer, open: number): number {
  let position = open + 1
  while (position < body.length) {
    const byte = body[position]
    if (byte === QUOTE) return position + 1
    position += byte === BACKSLASH ? 2 : 1
  }
  return -1
}

/** Index just past the value starting at `start`, or -1 when it is cut off. */
function pastValue(body: Buffer, start: number): number {
  const first = body[start]
  if (first === QUOTE) return pastString(body, start)
  if (first === 0x7b || first === 0x5b) {
    let depth = 0
    let position = start
    while (position < body.length) {
      const byte = body[position]
      if (byte === QUOTE) {
        position = pastString(body, position)
        if (position === -1) return -1
        continue
      }
      if (byte === 0x7b || byte === 0x5b) depth += 1
      else if (byte === 0x7d || byte === 0x5d) {
        depth -= 1
        if (depth === 0) return position + 1
      }
      position += 1
    }
    return -1
  }
  // A number or a literal: up to the next delimiter.
  let position = start
  while (position < body.length) {
    const byte = body[position]!
    if (byte === 0x2c || byte === 0x7d || byte === 0x5d || isJsonWhitespace(byte)) break
    position += 1
  }
  return position > start ? position : -1
}

/** The top-level members of the object `body` holds, or undefined when it is not one object. */
function topLevelMembers(body: Buffer): { open: number; members: MemberSpan[] } | undefined {
  const open = skipWhitespace(body, 0)
  if (body[open] !== 0x7b) return undefined
  const members: MemberSpan[] = []
  let position = skipWhitespace(body, open + 1)
  if (body[position] === 0x7d) return { open, members }
  for (;;) {
    if (body[position] !== QUOTE) return undefined
    const keyEnd = pastString(body, position)
    if (keyEnd === -1) return undefined
    let key: string
    try {
      key = JSON.parse(body.toString('utf8', position, keyEnd)) as string
    } catch {
      return undefined
    }
    position = skipWhitespace(body, keyEnd)
    if (body[position] !== 0x3a) return undefined
    const valueStart = skipWhitespace(body, position + 1)
    const valueEnd = pastValue(body, valueStart)
    if (valueEnd === -1) return undefined
    members.push({ key, valueStart, valueEnd })
    position = skipWhitespace(body, valueEnd)
    if (body[position] === 0x7d) return { open, members }
    if (body[position] !== 0x2c) return undefined
    position = skipWhitespace(body, position + 1)
  }
}

/**
 * The object `body` with the top-level members named in `values` set to the given JSON texts
 * (replaced where the body has them, every occurrence; added as first members where it has none),
 * every other byte unchanged. Undefined when the body is not one well-formed object.
 */
export function withMembers(body: Buffer, values: Readonly<Record<string, string>>): Buffer | undefined {
  const found = topLevelMembers(body)
  if (!found) return undefined
  const pieces: Buffer[] = []
  const added = Object.keys(values).filter((key) => !found.members.some((member) => member.key === key))
  // Own keys only: a member named "constructor" is not one of the values.
  const newValue = (key: string) => (Object.hasOwn(values, key) ? values[key] : undefined)
  const head = added.map((key) => `${JSON.stringify(key)}:${values[key]}`).join(',')
  const separator = added.length > 0 && found.members.length > 0 ? ',' : ''
  pieces.push(body.subarray(0, found.open + 1), Buffer.from(head + separator))
  let copied = found.open + 1
  for (const member of found.members) {
    const value = newValue(member.key)
    if (value === undefined) continue
    pieces.push(body.subarray(copied, member.valueStart), Buffer.from(value))
    copied = member.valueEnd
  }
  pieces.push(body.subarray(copied))
  return Buffer.concat(pieces)
}
