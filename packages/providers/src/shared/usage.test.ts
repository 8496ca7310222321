import { describe, expect, it } from 'vitest'
import { hasTokens, normaliseUsage } from './usage.ts'

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
