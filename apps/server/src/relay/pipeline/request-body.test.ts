import { describe, expect, it } from 'vitest'
import { readRelayBody } from './request-body.ts'

const facts = (mode: Parameters<typeof readRelayBody>[0], body: Record<string, unknown>) =>
  readRelayBody(mode, Buffer.from(JSON.stringify(body)), 'application/json')

describe('readRelayBody', () => {
  it('streams chat, completions and images (partial images), and nothing else', () => {
    expect(
      facts('chat', { model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }).stream,
    ).toBe(true)
    expect(facts('completions', { model: 'm', prompt: 'x', stream: true }).stream).toBe(true)
    expect(facts('images', { model: 'gpt-image-1', prompt: 'x', stream: true }).stream).toBe(true)
    expect(facts('embeddings', { model: 'e', input: 'x', stream: true }).stream).toBe(false)
    expect(facts('moderations', { input: 'x', stream: true }).stream).toBe(false)
  })

  it('makes speech a stream of events when it asks stream_format "sse", not on stream: true', () => {
    const speech = { model: 'gpt-4o-mini-tts', input: 'x', voice: 'alloy' }
    expect(facts('audio-speech', { ...speech, stream_format: 'sse' }).stream).toBe(true)
    expect(facts('audio-speech', { ...speech, stream_format: 'audio' }).stream).toBe(false)
    expect(facts('audio-speech', { ...speech, stream: true }).stream).toBe(false)
  })

  it('holds max_tokens for every completion asked for', () => {
    const chat = { model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 10 }
    expect(facts('chat', chat).maxTokens).toBe(10)
    expect(facts('chat', { ...chat, n: 3 }).maxTokens).toBe(30)
    const completions = { model: 'm', prompt: ['a', 'b'], max_tokens: 10, n: 2, best_of: 5 }
    expect(facts('completions', completions).maxTokens).toBe(100)
    // A list of numbers is one tokenised prompt.
    expect(facts('completions', { model: 'm', prompt: [1, 2, 3], max_tokens: 10 }).maxTokens).toBe(10)
  })
})
