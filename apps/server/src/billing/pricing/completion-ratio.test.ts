import { describe, expect, it } from 'vitest'
import { resolveCompletionRatio } from './completion-ratio.ts'

const cases: Array<[string, number]> = [
  ['gpt-3.5-turbo', 3],
  ['gpt-3.5-turbo-0125', 3],
  ['gpt-3.5-turbo-1106', 2],
  ['gpt-3.5-turbo-0613', 4 / 3],
  ['gpt-3.5-turbo-16k', 4 / 3],
  ['gpt-3.5-turbo-instruct', 4 / 3],
  ['gpt-4o', 4],
  ['gpt-4o-2024-08-06', 4],
  ['gpt-4o-2024-05-13', 3],
  ['gpt-4o-mini', 4],
  ['gpt-4-turbo', 3],
  ['gpt-4-turbo-2024-04-09', 3],
  ['gpt-4-1106-preview', 3],
  ['gpt-4-vision-preview', 3],
  ['gpt-4', 2],
  ['gpt-4-32k-0613', 2],
  ['gpt-4.1', 4],
  ['gpt-4.1-nano', 4],
  ['gpt-4.5-preview', 2],
  ['gpt-5', 8],
  ['gpt-5-mini', 8],
  ['o1', 4],
  ['o1-mini', 4],
  ['o1-preview-2024-09-12', 4],
  ['o3-mini', 4],
  ['o3', 4],
  ['o4-mini', 4],
  ['chatgpt-4o-latest', 3],
  ['claude-3-5-sonnet-20241022', 5],
  ['claude-3-haiku-20240307', 5],
  ['claude-3-7-sonnet-latest', 5],
  ['claude-sonnet-4-20250514', 5],
  ['claude-opus-4-1', 5],
  ['claude-2.1', 3],
  ['claude-instant-1.2', 3],
  ['mistral-large-latest', 3],
  ['gemini-1.5-pro', 3],
  ['gemini-2.0-flash', 3],
  ['gemini-2.5-pro', 8],
  ['gemini-2.5-flash', 2.5 / 0.3],
  ['deepseek-chat', 2],
  ['deepseek-reasoner', 2.19 / 0.55],
  ['deepseek-r1', 2],
  ['whisper-1', 0],
  ['command', 2],
  ['command-light-nightly', 2],
  ['command-r', 3],
  ['command-r-plus', 5],
  ['grok-beta', 3],
  ['grok-3-mini', 0.5 / 0.3],
  ['llama3-8b-8192', 2],
  ['llama3-70b-8192', 0.79 / 0.59],
  ['meta/llama-2-70b-chat', 2.75 / 0.65],
  ['qwen-max', 1],
  ['text-embedding-3-small', 1],
  ['some-unknown-model', 1],
  ['constructor', 1],
]

describe('resolveCompletionRatio', () => {
  it.each(cases)('%s -> %d', (model, expected) => {
    expect(resolveCompletionRatio(model, 1)).toBeCloseTo(expected, 12)
  })

  it('prices deepseek-reasoner output at about 3.98x input', () => {
    expect(resolveCompletionRatio('deepseek-reasoner', 36)).toBeCloseTo(3.98, 2)
  })

  it('uses per-channel-type explicit ratios (AWS Bedrock llama3)', () => {
    expect(resolveCompletionRatio('llama3-8b-8192', 33)).toBeCloseTo(2, 12)
    expect(resolveCompletionRatio('llama3-70b-8192', 33)).toBeCloseTo(0.0035 / 0.00265, 12)
    expect(resolveCompletionRatio('llama3-70b-8192', 29)).toBeCloseTo(0.79 / 0.59, 12)
  })

  it('lets the live CompletionRatio option override explicit values and family rules', () => {
    expect(resolveCompletionRatio('gpt-4o', 1, { 'gpt-4o': 5 })).toBe(5)
    expect(resolveCompletionRatio('whisper-1', 1, { 'whisper-1': 1 })).toBe(1)
    expect(resolveCompletionRatio('gpt-4o', 3, { 'gpt-4o(3)': 2 })).toBe(2)
    expect(resolveCompletionRatio('gpt-4o', 1, { 'gpt-4o(3)': 2 })).toBe(4)
    expect(resolveCompletionRatio('my-model', 1, { 'my-model': 6 })).toBe(6)
  })

  it('prices qwen-*-internet like the base model', () => {
    expect(resolveCompletionRatio('qwen-max-internet', 17, { 'qwen-max': 3 })).toBe(3)
  })
})
