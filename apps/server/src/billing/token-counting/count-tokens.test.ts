import { describe, expect, it } from 'vitest'
import {
  approximateTokenCount,
  CountBudget,
  countCompletionPromptTokens,
  countInputTokens,
  countTextTokens,
} from './count-tokens.ts'
import { encodingForModel, getEncoder } from './encoders.ts'

const chinese = '你好，世界！今天天气很好。'

describe('encodingForModel', () => {
  it('uses o200k for gpt-4o and later models, cl100k for the rest', () => {
    for (const model of [
      'gpt-4o',
      'gpt-4o-mini',
      'chatgpt-4o-latest',
      'o1',
      'o3-mini',
      'o4-mini',
      'gpt-4.1-mini',
      'gpt-5',
    ])
      expect(encodingForModel(model)).toBe('o200k_base')
    for (const model of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo', 'claude-3-opus-20240229', 'unknown-model'])
      expect(encodingForModel(model)).toBe('cl100k_base')
  })

  it('loads each vocabulary once and reuses it', () => {
    expect(getEncoder('cl100k_base')).toBe(getEncoder('cl100k_base'))
    expect(getEncoder('o200k_base')).not.toBe(getEncoder('cl100k_base'))
  })
})

describe('countTextTokens', () => {
  it('counts with the vocabulary of the model', () => {
    expect(countTextTokens('Hello world', 'gpt-4')).toBe(2)
    expect(countTextTokens('Hello world', 'gpt-4o')).toBe(2)
    expect(countTextTokens(chinese, 'gpt-3.5-turbo')).toBe(16)
    expect(countTextTokens(chinese, 'gpt-4o')).toBe(9)
    expect(countTextTokens('', 'gpt-4o')).toBe(0)
  })

  it('counts special-token markers in user text as plain text instead of failing', () => {
    expect(countTextTokens('<|endoftext|>', 'gpt-4')).toBe(7)
  })

  it('uses floor(UTF-8 bytes × 0.38) when ApproximateTokenEnabled is on', () => {
    expect(approximateTokenCount('Hello world')).toBe(4) // 11 bytes
    expect(countTextTokens('Hello world', 'gpt-4', { approximate: true })).toBe(4)
    expect(countTextTokens('你好', 'gpt-4', { approximate: true })).toBe(2) // 6 bytes
  })

  it('counts 10 KB of English quickly once the vocabulary is loaded', () => {
    const text = 'The relay counts tokens when the upstream reports no usage. '.repeat(200).slice(0, 10_240)
    countTextTokens(text, 'gpt-3.5-turbo')
    const started = performance.now()
    for (let i = 0; i < 20; i++) countTextTokens(`${i} ${text}`, 'gpt-3.5-turbo')
    // ~1 ms a call on the project's 2-core machines; a bound loose enough for a loaded CI box that still catches a vocabulary reload per call (~200 ms).
    expect((performance.now() - started) / 20).toBeLessThan(50)
  })
})

describe('bounded counting', () => {
  const exact = (text: string, model: string) =>
    getEncoder(encodingForModel(model)).countTokens(text, { disallowedSpecial: new Set() })

  it('counts runs the tokenizer would take as one piece in slices, a token per slice off at most', () => {
    // Runs the byte-pair merge is quadratic on: the exact count of each is still affordable here.
    const runs = [
      'x'.repeat(4_000),
      '中文字'.repeat(1_000),
      '-'.repeat(2_000),
      ' '.repeat(1_500),
      '𠀀'.repeat(500),
    ]
    for (const run of runs) {
      const text = `Before the run: ${run} and after it.`
      const slices = Math.ceil(run.length / 64)
      const off = Math.abs(countTextTokens(text, 'gpt-4o') - exact(text, 'gpt-4o'))
      expect(off, `a run of ${JSON.stringify(run.slice(0, 3))}`).toBeLessThanOrEqual(slices + 1)
    }
    // A repeated letter is cut where its tokens end (4 letters each for y): as the tokenizer counts it.
    expect(countTextTokens('y'.repeat(8_000), 'gpt-4')).toBe(exact('y'.repeat(8_000), 'gpt-4'))
  })

  it('leaves text without such runs to the tokenizer whole', () => {
    const prose = 'Plain prose, with punctuation; numbers 12345 and «quotes» — nothing runs long. '.repeat(
      300,
    )
    expect(countTextTokens(prose, 'gpt-4o')).toBe(exact(prose, 'gpt-4o'))
  })

  it('counts 40 MB of one letter, which the tokenizer alone would take days on', () => {
    // One letter in tokens of 8: the first million characters counted, the rest scaled from them.
    expect(countTextTokens('x'.repeat(40_000_000), 'gpt-4o', { budget: new CountBudget() })).toBe(5_000_000)
  })

  it("counts exactly up to the request's budget, then scales from what it counted", () => {
    const sentence = 'The gateway reserves quota before the call and settles it afterwards. '
    const first = sentence.repeat(5_000) // 350,000 characters
    const second = `${sentence.repeat(20_000)}end` // 1.4 million
    const budget = new CountBudget()
    expect(countTextTokens(first, 'gpt-4o', { budget })).toBe(exact(first, 'gpt-4o'))
    expect(budget.remaining).toBe(1_000_000 - first.length)
    const estimated = countTextTokens(second, 'gpt-4o', { budget })
    expect(budget.remaining).toBe(0)
    expect(Math.abs(estimated - exact(second, 'gpt-4o'))).toBeLessThan(10)
    // A text counted before (a conversation's earlier turn) comes from the cache and costs nothing.
    const again = new CountBudget(10)
    expect(countTextTokens(first, 'gpt-4o', { budget: again })).toBe(exact(first, 'gpt-4o'))
    expect(again.remaining).toBe(10)
    // With almost nothing left, one-api's byte estimate stands in for a sample too small to scale.
    expect(countTextTokens(`${second} `, 'gpt-4o', { budget: new CountBudget(100) })).toBe(
      approximateTokenCount(`${second} `),
    )
  })
})

describe('countCompletionPromptTokens', () => {
  it('counts a string, every prompt of an array, and pre-tokenized prompts', () => {
    expect(countCompletionPromptTokens('Hello world', 'gpt-3.5-turbo-instruct')).toBe(2)
    expect(countCompletionPromptTokens(['Hello world', 'Hello world'], 'gpt-3.5-turbo-instruct')).toBe(4)
    expect(countCompletionPromptTokens([9906, 1917, 0], 'gpt-3.5-turbo-instruct')).toBe(3)
    expect(countCompletionPromptTokens([[9906, 1917], [0]], 'gpt-3.5-turbo-instruct')).toBe(3)
    expect(countCompletionPromptTokens(undefined, 'gpt-3.5-turbo-instruct')).toBe(0)
  })

  it('honours the approximate mode', () => {
    expect(
      countCompletionPromptTokens(['Hello world', 'Hello world'], 'davinci-002', { approximate: true }),
    ).toBe(8)
  })
})

describe('countInputTokens', () => {
  it('counts embeddings and moderation inputs of every accepted shape', () => {
    expect(countInputTokens('Hello world', 'text-embedding-3-small')).toBe(2)
    expect(countInputTokens(['Hello world', chinese], 'text-embedding-3-small')).toBe(18)
    expect(countInputTokens([[1, 2, 3], [4]], 'text-embedding-3-small')).toBe(4)
    const moderation = [
      { type: 'text', text: 'Hello world' },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
    ]
    expect(countInputTokens(moderation, 'omni-moderation-latest')).toBe(2)
  })

  it('ignores shapes the APIs do not accept instead of recursing into them', () => {
    expect(countInputTokens([[['Hello world']]], 'text-embedding-3-small')).toBe(0)
    expect(countInputTokens({ nested: 'Hello world' }, 'text-embedding-3-small')).toBe(0)
    expect(countInputTokens(42, 'text-embedding-3-small')).toBe(0)
  })
})

describe('count cache', () => {
  it('gives the same count on a repeated text, separately per vocabulary', () => {
    // Text whose count differs between cl100k (gpt-4) and o200k (gpt-4o).
    const text = 'Привет, как дела? 你好，世界！ résumé naïve coöperate'.repeat(20)
    const cl100k = countTextTokens(text, 'gpt-4')
    const o200k = countTextTokens(text, 'gpt-4o')
    expect(cl100k).not.toBe(o200k)
    for (let round = 0; round < 3; round++) {
      expect(countTextTokens(text, 'gpt-4o')).toBe(o200k)
      expect(countTextTokens(text, 'gpt-4')).toBe(cl100k)
    }
  })
})
