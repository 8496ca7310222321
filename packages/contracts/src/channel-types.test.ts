import { describe, expect, it } from 'vitest'
import {
  CHANNEL_TYPE_ORDER,
  CHANNEL_TYPES,
  channelTypeInfo,
  isSelectableChannelType,
} from './channel-types.ts'
import { builtInModelCatalogue, defaultModelsByChannelType, defaultModelsOf } from './model-catalogue.ts'

describe('channel type catalogue', () => {
  it("keeps one-api's ids 0..51 in place", () => {
    expect(CHANNEL_TYPES.map((info) => info.id)).toEqual(Array.from({ length: 52 }, (_, id) => id))
    expect(channelTypeInfo(1)?.name).toBe('OpenAI')
    expect(channelTypeInfo(3)?.name).toBe('Azure OpenAI')
    expect(channelTypeInfo(8)?.name).toBe('Custom')
    expect(channelTypeInfo(14)?.name).toBe('Anthropic Claude')
    expect(channelTypeInfo(24)?.name).toBe('Google Gemini')
    expect(channelTypeInfo(36)?.name).toBe('DeepSeek')
    expect(channelTypeInfo(43)?.name).toBe('Proxy')
    expect(channelTypeInfo(50)?.name).toBe('OpenAI Compatible')
    expect(channelTypeInfo(15)?.keyHint).toBe('APIKey|SecretKey')
    expect(channelTypeInfo(18)?.keyHint).toBe('APPID|APISecret|APIKey')
    expect(channelTypeInfo(22)?.keyHint).toBe('APIKey-AppId')
    expect(channelTypeInfo(23)?.keyHint).toBe('AppId|SecretId|SecretKey')
    expect(channelTypeInfo(52)).toBeUndefined()
    expect(channelTypeInfo(1.5)).toBeUndefined()
  })

  it('offers every selectable type exactly once in the dropdown order', () => {
    const selectable = CHANNEL_TYPES.filter((info) => isSelectableChannelType(info.id)).map((info) => info.id)
    expect([...CHANNEL_TYPE_ORDER].sort((a, b) => a - b)).toEqual(selectable)
    expect(CHANNEL_TYPE_ORDER.slice(0, 3)).toEqual([1, 50, 14])
    expect(isSelectableChannelType(0)).toBe(false)
  })

  it('gives OpenAI-format types the OpenAI list and others their own', () => {
    expect(defaultModelsOf(8)).toBe(defaultModelsOf(1))
    expect(defaultModelsOf(1)).toEqual(expect.arrayContaining(['gpt-4o-mini', 'o1', 'dall-e-3', 'tts-1-hd']))
    expect(defaultModelsOf(51)).toEqual(defaultModelsOf(24))
    expect(Object.keys(defaultModelsByChannelType())).toHaveLength(51)
    const catalogue = builtInModelCatalogue()
    expect(new Set(catalogue.map((model) => model.id)).size).toBe(catalogue.length)
    expect(catalogue.every((model) => model.id.trim() === model.id && model.id !== '')).toBe(true)
  })
})
