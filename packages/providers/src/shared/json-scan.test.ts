import { describe, expect, it } from 'vitest'
import {
  hasKeyWithValue,
  hasKeyWithValueIn,
  lastObjectValueOf,
  stringValuesIn,
  stringValuesOf,
} from './json-scan.ts'

describe('json scan', () => {
  it('finds the last object-valued key, skipping braces and look-alike keys inside strings', () => {
    const reply = {
      choices: [{ message: { content: 'say "usage":{"prompt_tokens":999} and } braces {' } }],
      nested: { usage: 'not an object' },
      usage: { prompt_tokens: 3, completion_tokens: 4, details: { text: '}}{' } },
    }
    const text = JSON.stringify(reply)
    expect(JSON.parse(lastObjectValueOf(text, 'usage') ?? 'null')).toEqual(reply.usage)
  })

  it('returns undefined when the key is missing, not an object, or the object is cut off', () => {
    expect(lastObjectValueOf('{"a":1}', 'usage')).toBeUndefined()
    expect(lastObjectValueOf('{"usage":null}', 'usage')).toBeUndefined()
    expect(lastObjectValueOf('{"usage":{"prompt_tokens":1', 'usage')).toBeUndefined()
  })

  it('tells keys from string contents', () => {
    const text = JSON.stringify({ content: '"error":{"x":1}', error: null })
    expect(hasKeyWithValue(text, 'error', '{')).toBe(false)
    expect(stringValuesOf(JSON.stringify({ a: { content: 'x\n"y"' }, content: 'z' }), 'content')).toEqual([
      'x\n"y"',
      'z',
    ])
  })
})

describe('json scan on bytes', () => {
  const samples = [
    { choices: [{ delta: { content: 'plain' } }] },
    { choices: [{ delta: { content: 'Hé 你好 "quoted" \\ back\nslash' } }] },
    { content: 'content', nested: { content: 'second' }, other: { content: 3 } },
    { note: '"content":"fake"', choices: [] },
  ]

  it('reads the same string values as the text scan, surrounding bytes left out', () => {
    for (const sample of samples) {
      const text = JSON.stringify(sample)
      const framed = Buffer.from(`data: ${text}\n\n`)
      expect(stringValuesIn(framed, 6, 6 + Buffer.byteLength(text), Buffer.from('"content"'))).toEqual(
        stringValuesOf(text, 'content'),
      )
    }
    const spaced = Buffer.from('{"content" : "a", "content":\t"b"}')
    expect(stringValuesIn(spaced, 0, spaced.length, Buffer.from('"content"'))).toEqual(['a', 'b'])
  })

  it('finds object-valued keys only inside the given range', () => {
    const buffer = Buffer.from('{"a":1}{"usage" :{"x":1}}')
    expect(hasKeyWithValueIn(buffer, 0, 7, Buffer.from('"usage"'), 0x7b)).toBe(false)
    expect(hasKeyWithValueIn(buffer, 7, buffer.length, Buffer.from('"usage"'), 0x7b)).toBe(true)
    const inString = Buffer.from(JSON.stringify({ text: '"usage":{}' }))
    expect(hasKeyWithValueIn(inString, 0, inString.length, Buffer.from('"usage"'), 0x7b)).toBe(false)
  })
})
