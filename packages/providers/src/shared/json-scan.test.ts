import { describe, expect, it } from 'vitest'
import { hasKeyWithValue, lastObjectValueOf, scanPayload, stringValuesOf } from './json-scan.ts'

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
    { choices: [{ delta: { content: 'plain' } }], usage: null },
    { choices: [{ delta: { content: 'Hé 你好 "quoted" \\ back\nslash' } }] },
    { content: 'content', nested: { content: 'second' }, other: { content: 3 } },
    { note: '"content":"fake" "usage":{}', choices: [], usage: { prompt_tokens: 1 } },
    { error: { message: 'x' }, text: 'not content' },
  ]

  it('finds the same text values and object-valued keys as the text scans, in one pass', () => {
    for (const sample of samples) {
      const text = JSON.stringify(sample)
      const framed = Buffer.from(`data: ${text}\n\n`)
      const scan = scanPayload(framed, 6, 6 + Buffer.byteLength(text), Buffer.from('content'))
      expect(scan.texts).toEqual(stringValuesOf(text, 'content'))
      expect(scan.usageObject).toBe(hasKeyWithValue(text, 'usage', '{'))
      expect(scan.errorObject).toBe(hasKeyWithValue(text, 'error', '{'))
    }
    const spaced = Buffer.from('{"content" : "a", "content":\t"b", "usage" :\n{"x":1}}')
    expect(scanPayload(spaced, 0, spaced.length, Buffer.from('content'))).toEqual({
      usageObject: true,
      errorObject: false,
      texts: ['a', 'b'],
    })
  })

  it('looks only inside the given range and stops at a cut-off string', () => {
    const buffer = Buffer.from('{"a":1}{"usage" :{"x":1}}')
    expect(scanPayload(buffer, 0, 7, Buffer.from('content')).usageObject).toBe(false)
    expect(scanPayload(buffer, 7, buffer.length, Buffer.from('content')).usageObject).toBe(true)
    const cut = Buffer.from('{"content":"abc')
    expect(scanPayload(cut, 0, cut.length, Buffer.from('content')).texts).toEqual([])
  })
})
