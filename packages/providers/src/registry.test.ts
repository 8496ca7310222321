import { describe, expect, it } from 'vitest'
import { anthropicAdaptor, anthropicNativeAdaptor } from './anthropic/adaptor.ts'
import { bedrockAdaptor } from './bedrock/adaptor.ts'
import { bedrockMessagesAdaptor } from './bedrock/native-messages.ts'
import { geminiAdaptor } from './gemini/adaptor.ts'
import { geminiNativeAdaptor } from './gemini-client/native-adaptor.ts'
import { openAiCompatibleAdaptor } from './openai-compatible/adaptor.ts'
import { minimaxAdaptor } from './openai-compatible/minimax.ts'
import { getAdaptor, supportedChannelTypes } from './registry.ts'
import { relayModeFromPath } from './relay-mode.ts'
import { vertexAdaptor } from './vertex/adaptor.ts'
import { vertexMessagesAdaptor } from './vertex/native-messages.ts'

describe('registry', () => {
  it('maps every OpenAI-format channel type to the OpenAI-compatible adaptor (MiniMax to its variant)', () => {
    const openAiFormat = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 19, 20, 22, 25, 26, 27, 28, 29, 31, 32, 36]
    for (const type of [...openAiFormat, 39, 40, 41, 44, 45, 47, 48, 49, 50, 51]) {
      expect(getAdaptor(type)).toBe(type === 27 ? minimaxAdaptor : openAiCompatibleAdaptor)
    }
    expect(supportedChannelTypes()).toEqual(
      [
        ...openAiFormat,
        11,
        14,
        15,
        16,
        17,
        18,
        21,
        23,
        24,
        30,
        33,
        34,
        35,
        37,
        38,
        39,
        40,
        41,
        42,
        44,
        45,
        46,
        47,
        48,
        49,
        50,
        51,
      ].sort((a, b) => a - b),
    )
  })

  it('serves Anthropic channels natively to Messages clients and bridges the other types', () => {
    expect(getAdaptor(14)).toBe(anthropicAdaptor)
    expect(getAdaptor(14, 'anthropic')).toBe(anthropicNativeAdaptor)
    const bridged = getAdaptor(1, 'anthropic')
    expect(bridged).toBeDefined()
    expect(bridged).not.toBe(openAiCompatibleAdaptor)
    expect(getAdaptor(1, 'anthropic')).toBe(bridged)
    expect(getAdaptor(24)).toBe(geminiAdaptor)
    expect(getAdaptor(24, 'anthropic')).toBeDefined()
  })

  it('serves Gemini channels natively to Gemini clients and bridges the other types', () => {
    expect(getAdaptor(24, 'gemini')).toBe(geminiNativeAdaptor)
    const bridged = getAdaptor(14, 'gemini')
    expect(bridged).toBeDefined()
    expect(bridged).not.toBe(getAdaptor(14, 'anthropic'))
    expect(getAdaptor(14, 'gemini')).toBe(bridged)
  })

  it('serves Vertex AI channels (42), natively to Messages clients (Claude models)', () => {
    expect(getAdaptor(42)).toBe(vertexAdaptor)
    expect(getAdaptor(42, 'anthropic')).toBe(vertexMessagesAdaptor)
  })

  it('serves AWS Bedrock channels (33) with the Bedrock adaptor, natively to Messages clients (Claude)', () => {
    expect(getAdaptor(33)).toBe(bedrockAdaptor)
    expect(getAdaptor(33, 'anthropic')).toBe(bedrockMessagesAdaptor)
  })

  it('passes Responses clients through to OpenAI channels (or those configured so) and bridges the rest', () => {
    const passthrough = getAdaptor(1, 'responses')
    expect(getAdaptor(50, 'responses', { responses_api: true })).toBe(passthrough)
    const bridged = getAdaptor(50, 'responses')
    expect(bridged).not.toBe(passthrough)
    expect(getAdaptor(14, 'responses')).not.toBe(anthropicAdaptor)
    expect(getAdaptor(999, 'responses')).toBeUndefined()
  })

  it('has no adaptor for native or unknown types yet', () => {
    for (const type of [0, 43, 52, 999]) expect(getAdaptor(type)).toBeUndefined()
  })

  it('derives the relay mode from the path', () => {
    expect(relayModeFromPath('/v1/chat/completions?x=1')).toBe('chat')
    expect(relayModeFromPath('/v1/engines/text-embedding-ada-002/embeddings')).toBe('embeddings')
    expect(relayModeFromPath('/v1/audio/translations')).toBe('audio-translation')
    expect(relayModeFromPath('/v1/files')).toBeUndefined()
  })
})
