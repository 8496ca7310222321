import { describe, expect, it } from 'vitest'
import { objectEnd, objectsHeldBy, type PayloadScan, scanPayload } from './json-scan.ts'

const CONTENT = Buffer.from('content')
const scanText = (text: string, textKey: Buffer | undefined = CONTENT) =>
  scanPayload(Buffer.from(text), 0, Buffer.byteLength(text), textKey)
const usageOf = (text: string, scan: PayloadScan) =>
  scan.usage ? JSON.parse(Buffer.from(text).toString('utf8', scan.usage.start, scan.usage.end)) : undefined

describe('json scan', () => {
  it('finds the last object-valued usage, skipping braces and look-alike keys inside strings', () => {
    const reply = {
      choices: [{ message: { content: 'say "usage":{"prompt_tokens":999} and } braces {' } }],
      nested: { usage: 'not an object' },
      usage: { prompt_tokens: 3, completion_tokens: 4, details: { text: '}}{' } },
    }
    const text = JSON.stringify(reply)
    expect(usageOf(text, scanText(text))).toEqual(reply.usage)
  })

  it('finds no usage when the key is missing, not an object, or the object is cut off', () => {
    expect(scanText('{"a":1}').usage).toBeUndefined()
    expect(scanText('{"usage":null}').usage).toBeUndefined()
    expect(scanText('{"usage":{"prompt_tokens":1').usage).toBeUndefined()
  })

  it('tells keys from string contents', () => {
    expect(scanText(JSON.stringify({ content: '"error":{"x":1}', error: null })).errorObject).toBe(false)
    expect(scanText(JSON.stringify({ a: { content: 'x\n"y"' }, content: 'z' })).texts).toEqual([
      'x\n"y"',
      'z',
    ])
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
      const scan = scanPayload(framed, 6, 6 + Buffer.byteLength(text), CONTENT)
      expect(scan.texts).toEqual(expected.texts)
      expect(scan.errorObject).toBe(expected.errorObject)
      const usage = scan.usage
        ? JSON.parse(framed.toString('utf8', scan.usage.start, scan.usage.end))
        : undefined
      expect(usage).toEqual(expected.usage)
    }
    const spaced = '{"content" : "a", "content":\t"b", "usage" :\n{"x":1}}'
    const scan = scanText(spaced)
    expect(scan.texts).toEqual(['a', 'b'])
    expect(scan.errorObject).toBe(false)
    expect(usageOf(spaced, scan)).toEqual({ x: 1 })
  })

  it('looks only inside the given range and stops at a cut-off string', () => {
    const buffer = Buffer.from('{"a":1}{"usage" :{"x":1}}')
    expect(scanPayload(buffer, 0, 7, CONTENT).usage).toBeUndefined()
    expect(scanPayload(buffer, 7, buffer.length, CONTENT).usage).toBeDefined()
    expect(scanText('{"content":"abc').texts).toEqual([])
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
