import { describe, expect, it } from 'vitest'
import { countChatPromptTokens, estimateImageTokens } from './chat-tokens.ts'
import { countTextTokens } from './count-tokens.ts'

const hello = [{ role: 'user', content: 'Hello world' }]
const weatherTool = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
]

describe('countChatPromptTokens', () => {
  it('adds 3 per message, the role, the content and 3 for the reply', () => {
    // 3 + "user" 1 + "Hello world" 2 + 3
    expect(countChatPromptTokens(hello, 'gpt-4')).toBe(9)
    const conversation = [
      { role: 'system', content: 'Hello' },
      { role: 'user', content: 'Hello world' },
      { role: 'assistant', content: null },
    ]
    // (3 + 1 + 1) + (3 + 1 + 2) + (3 + 1 + 0) + 3
    expect(countChatPromptTokens(conversation, 'gpt-4o')).toBe(18)
  })

  it('counts a name as 1 + its tokens, and uses gpt-3.5-turbo-0301 own overheads', () => {
    const named = [{ role: 'user', content: 'Hello world', name: 'bob' }]
    expect(countChatPromptTokens(named, 'gpt-4')).toBe(11) // 3 + 1 + 2 + (1 + 1) + 3
    expect(countChatPromptTokens(named, 'gpt-3.5-turbo-0301')).toBe(10) // 4 + 1 + 2 + (-1 + 1) + 3
  })

  it('sums text parts and estimates images without downloading them', () => {
    const parts = (detail?: string) => [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hello' },
          { type: 'text', text: ' world' },
          {
            type: 'image_url',
            image_url: { url: 'https://example.invalid/cat.png', ...(detail ? { detail } : {}) },
          },
        ],
      },
    ]
    expect(countChatPromptTokens(parts('low'), 'gpt-4o')).toBe(9 + 85)
    expect(countChatPromptTokens(parts('high'), 'gpt-4o')).toBe(9 + 765)
    expect(countChatPromptTokens(parts(), 'gpt-4o')).toBe(9 + 765)
    expect(countChatPromptTokens(parts('low'), 'gpt-4o-mini')).toBe(9 + 2833)
    expect(countChatPromptTokens(parts('auto'), 'gpt-4o-mini')).toBe(9 + 25_501)
  })

  it('counts the tools JSON, which one-api left out', () => {
    const toolsTokens = countTextTokens(JSON.stringify(weatherTool), 'gpt-4o')
    expect(toolsTokens).toBe(41)
    expect(countChatPromptTokens(hello, 'gpt-4o', weatherTool)).toBe(9 + 41)
    expect(countChatPromptTokens(hello, 'gpt-4o', [])).toBe(9)
    expect(countChatPromptTokens(hello, 'gpt-4o', null)).toBe(9)
  })

  it('counts the arguments of earlier assistant tool calls', () => {
    const withCall = [
      ...hello,
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
    ]
    // 9 + (3 + "assistant" 1 + "get_weather" 2 + arguments 5)
    expect(countChatPromptTokens(withCall, 'gpt-4o')).toBe(20)
  })

  it('uses the byte estimate for text in approximate mode, keeping the per-message overhead', () => {
    // 3 + floor(4 × 0.38) + floor(11 × 0.38) + 3
    expect(countChatPromptTokens(hello, 'gpt-4', undefined, { approximate: true })).toBe(11)
  })

  it('skips malformed parts instead of throwing', () => {
    const messy = [
      { role: 'user', content: [null, 'text', { type: 'text', text: 5 }, { type: 'text', text: 'Hello' }] },
    ]
    expect(countChatPromptTokens(messy, 'gpt-4')).toBe(3 + 1 + 1 + 3)
    expect(countChatPromptTokens([{ role: 'assistant', tool_calls: [null, 'x'] }], 'gpt-4')).toBe(7)
  })
})

describe('estimateImageTokens', () => {
  it('follows OpenAI vision pricing examples', () => {
    expect(estimateImageTokens({ model: 'gpt-4o' })).toBe(765) // assumed 1024x1024 high detail
    expect(estimateImageTokens({ model: 'gpt-4o', width: 1024, height: 1024, detail: 'high' })).toBe(765)
    expect(estimateImageTokens({ model: 'gpt-4o', width: 2048, height: 4096, detail: 'high' })).toBe(1105)
    expect(estimateImageTokens({ model: 'gpt-4o', width: 500, height: 500 })).toBe(255)
    expect(estimateImageTokens({ model: 'gpt-4o', width: 4096, height: 4096, detail: 'low' })).toBe(85)
    expect(estimateImageTokens({ model: 'gpt-4o-mini-2024-07-18', width: 1024, height: 1024 })).toBe(25_501)
  })
})
