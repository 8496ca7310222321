import { describe, expect, it } from 'vitest'
import {
  approximateTokenCount,
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
