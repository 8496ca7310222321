import { describe, expect, it } from 'vitest'
import { objectEnd, objectsHeldBy, stringValuesOf } from './json-scan.ts'

const CONTENT = [Buffer.from('content')]
const textsOf = (text: string) => stringValuesOf(Buffer.from(text), 0, Buffer.byteLength(text), CONTENT)
/** The last object held by `key` in `text`, parsed; undefined when there is none or it is cut off. */
function lastObject(text: string, key: string): unknown {
  const start = objectsHeldBy(text, [key])[0]!.at(-1)
  if (start === undefined) return undefined
  const end = objectEnd(Buffer.from(text, 'latin1'), start, text.length)
  return end === -1 ? undefined : JSON.parse(text.slice(start, end))
}

describe('json scan', () => {
  it('finds the last object-valued usage, skipping braces and look-alike keys inside strings', () => {
    const reply = {
      choices: [{ message: { content: 'say "usage":{"prompt_tokens":999} and } braces {' } }],
      nested: { usage: 'not an object' },
      usage: { prompt_tokens: 3, completion_tokens: 4, details: { text: '}}{' } },
    }
    expect(lastObject(JSON.stringify(reply), 'usage')).toEqual(reply.usage)
  })

  it('finds no usage when the key is missing, not an object, or the object is cut off', () => {
    expect(lastObject('{"a":1}', 'usage')).toBeUndefined()
    expect(lastObject('{"usage":null}', 'usage')).toBeUndefined()
    expect(lastObject('{"usage":{"prompt_tokens":1', 'usage')).toBeUndefined()
  })

  it('does not take a key ending in an escaped quote and the name for that name (found by a property test)', () => {
    // The key is `a"usage`, not `usage`.
    expect(lastObject('{"a\\"usage":{"prompt_tokens":1}}', 'usage')).toBeUndefined()
    expect(lastObject('{"a\\"usage":{},"usage":{"prompt_tokens":1}}', 'usage')).toEqual({ prompt_tokens: 1 })
  })

  it('tells keys from string contents', () => {
    expect(objectsHeldBy(JSON.stringify({ content: '"error":{"x":1}', error: null }), ['error'])).toEqual([
      [],
    ])
    expect(textsOf(JSON.stringify({ a: { content: 'x\n"y"' }, content: 'z' }))).toEqual(['x\n"y"', 'z'])
  })
})

describe('json scan on bytes', () => {
  const samples: Array<[unknown, { texts: string[]; usage: unknown; errorObject: boolean }]> = [
    [
      { choices: [{ delta: { content: 'plain' } }], usage: null },
      { texts: ['plain'], usage: undefined, errorObject: false },
    ],
    [
      { choices: [{ delta: { content: 'Hé 你好 "quoted" \\ back\nslash' } }] },
      { texts: ['Hé 你好 "quoted" \\ back\nslash'], usage: undefined, errorObject: false },
    ],
    [
      { content: 'content', nested: { content: 'second' }, other: { content: 3 } },
      { texts: ['content', 'second'], usage: undefined, errorObject: false },
    ],
    [
      { note: '"content":"fake" "usage":{}', choices: [], usage: { prompt_tokens: 1 } },
      { texts: [], usage: { prompt_tokens: 1 }, errorObject: false },
    ],
    [
      { error: { message: 'x' }, text: 'not content' },
      { texts: [], usage: undefined, errorObject: true },
    ],
  ]

  it('reads text values, usage and error objects of a payload framed inside a larger buffer', () => {
    for (const [sample, expected] of samples) {
      const text = JSON.stringify(sample)
      const framed = Buffer.from(`data: ${text}\n\n`)
      expect(stringValuesOf(framed, 6, 6 + Buffer.byteLength(text), CONTENT)).toEqual(expected.texts)
      const latin1 = framed.toString('latin1')
      expect(objectsHeldBy(latin1, ['error'])[0]!.length > 0).toBe(expected.errorObject)
      expect(lastObject(latin1, 'usage')).toEqual(expected.usage)
    }
    const spaced = '{"content" : "a", "content":\t"b", "usage" :\n{"x":1}}'
    expect(textsOf(spaced)).toEqual(['a', 'b'])
    expect(objectsHeldBy(spaced, ['error'])).toEqual([[]])
    expect(lastObject(spaced, 'usage')).toEqual({ x: 1 })
  })

  it('looks only inside the given range and stops at a cut-off string', () => {
    const buffer = Buffer.from('{"content":"a"}{"content" :"b"}')
    expect(stringValuesOf(buffer, 0, 15, CONTENT)).toEqual(['a'])
    expect(stringValuesOf(buffer, 15, buffer.length, CONTENT)).toEqual(['b'])
    expect(textsOf('{"content":"abc')).toEqual([])
  })
})

describe('objects held by keys', () => {
  const heldBy = (value: unknown, keys: string[], space?: number) => {
    const text = JSON.stringify(value, null, space)
    return objectsHeldBy(text, keys).map((positions) =>
      positions.map((position) =>
        JSON.parse(text.slice(position, objectEnd(Buffer.from(text), position, text.length))),
      ),
    )
  }

  it('finds the objects of the keys, at any depth and with any spacing', () => {
    const value = {
      usage: { prompt_tokens: 1 },
      nested: { error: { message: 'x' }, usage: { total_tokens: 2 } },
    }
    expect(heldBy(value, ['usage', 'error'])).toEqual([
      [{ prompt_tokens: 1 }, { total_tokens: 2 }],
      [{ message: 'x' }],
    ])
    expect(heldBy(value, ['usage', 'error'], 2)).toEqual(heldBy(value, ['usage', 'error']))
  })

  it('ignores look-alikes inside strings, values that are not objects, and longer keys', () => {
    const value = {
      content: 'say "usage": {"prompt_tokens": 9} or "error":{}',
      error: null,
      my_usage: { prompt_tokens: 3 },
      usage: [{ prompt_tokens: 4 }],
    }
    expect(heldBy(value, ['usage', 'error'])).toEqual([[], []])
  })
})
