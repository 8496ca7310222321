import { describe, expect, it } from 'vitest'
import { hasKeyWithValue, lastObjectValueOf, stringValuesOf } from './json-scan.ts'

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
