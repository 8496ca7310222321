import { describe, expect, it } from 'vitest'
import { anthropicAdaptor, anthropicNativeAdaptor } from './anthropic/adaptor.ts'
import { openAiCompatibleAdaptor } from './openai-compatible/adaptor.ts'
import { getAdaptor, supportedChannelTypes } from './registry.ts'
import { relayModeFromPath } from './relay-mode.ts'

describe('registry', () => {
  it('maps every OpenAI-format channel type to the OpenAI-compatible adaptor', () => {
    const openAiFormat = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 19, 20, 22, 25, 26, 27, 28, 29, 31, 32, 36]
    for (const type of [...openAiFormat, 39, 40, 41, 44, 45, 47, 48, 49, 50, 51]) {
      expect(getAdaptor(type)).toBe(openAiCompatibleAdaptor)
    }
    expect(supportedChannelTypes()).toEqual(
      [...openAiFormat, 11, 14, 16, 23, 34, 39, 40, 41, 44, 45, 47, 48, 49, 50, 51].sort((a, b) => a - b),
    )
  })

  it('serves Anthropic channels natively to Messages clients and bridges the other types', () => {
    expect(getAdaptor(14)).toBe(anthropicAdaptor)
    expect(getAdaptor(14, 'anthropic')).toBe(anthropicNativeAdaptor)
    const bridged = getAdaptor(1, 'anthropic')
    expect(bridged).toBeDefined()
    expect(bridged).not.toBe(openAiCompatibleAdaptor)
    expect(getAdaptor(1, 'anthropic')).toBe(bridged)
    expect(getAdaptor(24, 'anthropic')).toBeUndefined()
  })

  it('has no adaptor for native or unknown types yet', () => {
    for (const type of [0, 24, 43, 52, 999]) expect(getAdaptor(type)).toBeUndefined()
  })

  it('derives the relay mode from the path', () => {
    expect(relayModeFromPath('/v1/chat/completions?x=1')).toBe('chat')
    expect(relayModeFromPath('/v1/engines/text-embedding-ada-002/embeddings')).toBe('embeddings')
    expect(relayModeFromPath('/v1/audio/translations')).toBe('audio-translation')
    expect(relayModeFromPath('/v1/files')).toBeUndefined()
  })
})
