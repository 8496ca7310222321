import { describe, expect, it } from 'vitest'
import { resolveModelRatio } from './model-ratio.ts'

describe('resolveModelRatio', () => {
  it('prices built-in models from the defaults', () => {
    expect(resolveModelRatio('gpt-4o', 1)).toBe(2.5)
    expect(resolveModelRatio('gpt-4o-mini', undefined, {})).toBe(0.075)
    expect(resolveModelRatio('claude-3-opus-20240229', 14)).toBe(7.5)
    expect(resolveModelRatio('deepseek-reasoner', 36)).toBe(0.275)
    expect(resolveModelRatio('dall-e-3', 1)).toBe(20)
  })

  it('returns undefined for a model nobody priced instead of one-api silent ratio 30', () => {
    expect(resolveModelRatio('my-private-model', 1, {})).toBeUndefined()
    expect(resolveModelRatio('gpt-4o-internet', 1)).toBeUndefined()
  })

  it('prices an unknown model once the administrator sets a live ratio', () => {
    expect(resolveModelRatio('my-private-model', 1, { 'my-private-model': 3 })).toBe(3)
  })

  it('lets a live ratio override a default, and keeps free models free (0, not undefined)', () => {
    expect(resolveModelRatio('gpt-4o', 1, { 'gpt-4o': 1 })).toBe(1)
    expect(resolveModelRatio('glm-4-flash', 16)).toBe(0)
  })

  it('uses per-channel-type keys like llama3-8b-8192(33) before the plain name', () => {
    // AWS Bedrock (type 33) charges $0.0003 / 1K; Groq (type 29) $0.05 / 1M.
    expect(resolveModelRatio('llama3-8b-8192', 33)).toBeCloseTo(0.15, 12)
    expect(resolveModelRatio('llama3-8b-8192', 29)).toBeCloseTo(0.025, 12)
    expect(resolveModelRatio('llama3-8b-8192', undefined)).toBeCloseTo(0.025, 12)
  })

  it('follows one-api order: live typed, default typed, live plain, default plain', () => {
    const live = { 'llama3-8b-8192(33)': 0.2, 'llama3-8b-8192': 0.3 }
    expect(resolveModelRatio('llama3-8b-8192', 33, live)).toBe(0.2)
    // A live plain price does not beat the built-in per-type price.
    expect(resolveModelRatio('llama3-8b-8192', 33, { 'llama3-8b-8192': 0.3 })).toBeCloseTo(0.15, 12)
    expect(resolveModelRatio('llama3-8b-8192', 29, live)).toBe(0.3)
    expect(resolveModelRatio('gpt-4o', 3, { 'gpt-4o(3)': 4 })).toBe(4)
    expect(resolveModelRatio('gpt-4o', 1, { 'gpt-4o(3)': 4 })).toBe(2.5)
  })

  it('prices qwen-*-internet and command-*-internet like their base model', () => {
    expect(resolveModelRatio('qwen-max-internet', 17)).toBe(resolveModelRatio('qwen-max', 17))
    expect(resolveModelRatio('command-r-internet', 35)).toBe(0.25)
    expect(resolveModelRatio('qwen-max-internet', 17, { 'qwen-max': 9 })).toBe(9)
  })

  it('converts CNY prices with the real 500/7, not one-api integer 71', () => {
    expect(resolveModelRatio('ERNIE-4.0-8K', 15)).toBeCloseTo((0.12 * 500) / 7, 12)
    expect(resolveModelRatio('ERNIE-4.0-8K', 15)).toBeCloseTo(8.5714, 4)
    expect(resolveModelRatio('moonshot-v1-8k', 25)).toBeCloseTo(0.857142857, 8)
  })

  it('fixes one-api prices that were 1000x too cheap (Groq, StepFun)', () => {
    expect(resolveModelRatio('llama3-70b-8192', 29)).toBeCloseTo(0.295, 12) // $0.59 / 1M
    expect(resolveModelRatio('step-1-8k', 32)).toBeCloseTo((5 * 500) / 7 / 1000, 12) // ¥5 / 1M
  })

  it('ignores prototype keys and unusable live values', () => {
    expect(resolveModelRatio('constructor', 1)).toBeUndefined()
    expect(resolveModelRatio('__proto__', 1, {})).toBeUndefined()
    expect(resolveModelRatio('toString', 1, {})).toBeUndefined()
    expect(resolveModelRatio('my-model', 1, { 'my-model': -1 })).toBeUndefined()
    expect(resolveModelRatio('gpt-4o', 1, { 'gpt-4o': -5 })).toBe(2.5)
    expect(resolveModelRatio('gpt-4o', 1, { 'gpt-4o': 'cheap' as unknown as number })).toBe(2.5)
  })
})
