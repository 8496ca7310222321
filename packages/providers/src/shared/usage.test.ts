import { describe, expect, it } from 'vitest'
import { hasTokens, NOT_SCANNED, normaliseUsage, readUsageObject, scanUsage, UNREADABLE } from './usage.ts'

describe('normaliseUsage', () => {
  it('reads chat usage with cached and reasoning details', () => {
    const usage = normaliseUsage({
      prompt_tokens: 1180,
      completion_tokens: 214,
      total_tokens: 1394,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 192 },
    })
    expect(usage).toEqual({
      promptTokens: 1180,
      completionTokens: 214,
      cachedTokens: 1024,
      reasoningTokens: 192,
      totalTokens: 1394,
    })
  })

  it('reads embeddings usage (prompt only) and input/output spellings', () => {
    expect(normaliseUsage({ prompt_tokens: 8, total_tokens: 8 })).toMatchObject({
      completionTokens: 0,
      totalTokens: 8,
    })
    expect(normaliseUsage({ input_tokens: 3, output_tokens: 4 })).toMatchObject({ totalTokens: 7 })
  })

  it('rejects missing or nonsensical usage', () => {
    expect(normaliseUsage(null)).toBeUndefined()
    expect(normaliseUsage({ prompt_tokens: -1, completion_tokens: 'x' })).toBeUndefined()
    expect(hasTokens(normaliseUsage({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }))).toBe(false)
  })
})

describe('scanUsage', () => {
  it('leaves integers of more than 15 digits to JSON.parse, which rounds them correctly', () => {
    // Found by a property test: adding up the digits of 102983760145849329385472 rounded unlike JSON.parse.
    for (const usage of [
      '{"prompt_tokens":102983760145849329385472}',
      '{"prompt_tokens":1,"completion_tokens":9007199254740993}',
    ]) {
      const bytes = Buffer.from(usage)
      expect(scanUsage(bytes, 0, bytes.length)).toBe(NOT_SCANNED)
      expect(readUsageObject(bytes, 0, bytes.length)).toEqual(normaliseUsage(JSON.parse(usage)))
    }
    const fifteen = Buffer.from('{"prompt_tokens":999999999999999}')
    expect(scanUsage(fifteen, 0, fifteen.length)).toEqual(normaliseUsage({ prompt_tokens: 999999999999999 }))
  })

  /** The usage object inside an event, as the transformer finds it, scanned in place. */
  const scanned = (usage: string) => {
    const event = Buffer.from(`{"choices":[],"usage":${usage}}`)
    const open = event.indexOf('"usage":') + '"usage":'.length
    return scanUsage(event, open, event.length)
  }

  it('reads every usage shape the same as JSON.parse and normaliseUsage do', () => {
    const shapes = [
      // OpenAI chat, as sent
      '{"prompt_tokens":14,"completion_tokens":7,"total_tokens":21,"prompt_tokens_details":{"cached_tokens":3,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":2,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}',
      // written with spaces and newlines (Python's json.dumps, pretty printers)
      '{ "prompt_tokens" : 1180 ,\n  "completion_tokens": 214, "total_tokens": 1394,\n "prompt_tokens_details": { "cached_tokens": 1024 } }',
      '{"prompt_tokens":8,"total_tokens":8}',
      '{"input_tokens":3,"output_tokens":4,"input_tokens_details":{"cached_tokens":1},"output_tokens_details":{"reasoning_tokens":2}}',
      // null details fall back to the other spelling; a number for details counts nothing
      '{"prompt_tokens":5,"prompt_tokens_details":null,"input_tokens_details":{"cached_tokens":4},"completion_tokens_details":7}',
      '{"prompt_tokens":null,"input_tokens":9,"completion_tokens":null,"total_tokens":null}',
      // the last of a repeated key wins
      '{"prompt_tokens":1,"completion_tokens":2,"prompt_tokens":30}',
      '{"completion_tokens_details":{"reasoning_tokens":5,"reasoning_tokens":6},"completion_tokens":9}',
      '{}',
      '{"audio_tokens":4}',
      '{"prompt_tokens":12345678901234}',
    ]
    for (const shape of shapes) {
      const text = shape.replaceAll('\\n', '\n')
      expect(scanned(text), text).toEqual(normaliseUsage(JSON.parse(text)))
    }
    expect(scanned('{"prompt_tokens":14,"completion_tokens":7,"total_tokens":21}')).toEqual({
      promptTokens: 14,
      completionTokens: 7,
      cachedTokens: 0,
      reasoningTokens: 0,
      totalTokens: 21,
    })
  })

  it('leaves any other shape to JSON.parse', () => {
    const others = [
      '{"prompt_tokens":1.5}',
      '{"prompt_tokens":1e3}',
      '{"prompt_tokens":-1}',
      '{"prompt_tokens":"12"}',
      '{"prompt_tokens":true}',
      '{"cost":0.0012,"prompt_tokens":3}',
      '{"model":"gpt-4o","prompt_tokens":3}',
      '{"prompt_tokens":3,"tiers":[1,2]}',
      '{"prompt\\u005ftokens":3}',
      '{"prompt_tokens_details":{"cached":{"tokens":1}}}',
      '{"prompt_tokens":3,}',
      '{"prompt_tokens":3 "total_tokens":3}',
      'null',
      '[1]',
    ]
    for (const other of others) expect(scanned(other), other).toBe(NOT_SCANNED)
  })

  it('never reads past the end it is given', () => {
    const event = Buffer.from('{"usage":{"prompt_tokens":14,"total_tokens":14}}')
    const open = event.indexOf('{', 1)
    expect(scanUsage(event, open, event.length - 1)).toEqual(
      normaliseUsage({ prompt_tokens: 14, total_tokens: 14 }),
    )
    expect(scanUsage(event, open, event.indexOf('14'))).toBe(NOT_SCANNED)
    // Cut right after a value, or inside a null, with a closing brace just past the end.
    const cut = Buffer.from('{"prompt_tokens":14 }')
    expect(scanUsage(cut, 0, cut.indexOf(' '))).toBe(NOT_SCANNED)
    const withNull = Buffer.from('{"prompt_tokens":null}')
    expect(scanUsage(withNull, 0, withNull.indexOf('ll'))).toBe(NOT_SCANNED)
  })
})

describe('readUsageObject', () => {
  const read = (text: string) => readUsageObject(Buffer.from(text), 0, text.length)

  it('parses the shapes the scan leaves, and says when the object cannot be read', () => {
    expect(read('{"prompt_tokens":3,"completion_tokens":2}')).toMatchObject({ totalTokens: 5 })
    expect(read('{"model":"m","prompt_tokens":3.0,"total_tokens":1e1}')).toMatchObject({
      promptTokens: 3,
      totalTokens: 10,
    })
    expect(read('{"cost":0.5}')).toBeUndefined()
    expect(read('{"prompt_tokens":3')).toBe(UNREADABLE)
    expect(read('{"prompt_tokens":3,}')).toBe(UNREADABLE)
  })
})
