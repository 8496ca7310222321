import { describe, expect, it } from 'vitest'
import { OPTION_DEFINITIONS } from '../options.ts'
import {
  completionUsdPerMillionTokens,
  DEFAULT_COMPLETION_RATIOS,
  DEFAULT_GROUP_RATIOS,
  DEFAULT_MODEL_RATIOS,
  MILLI_RMB,
  MILLI_USD,
  RMB,
  ratioToUsdPerMillionTokens,
  USD,
  usdPerMillionTokensToRatio,
} from '../pricing-defaults.ts'
import { ALIBABA_MODEL_RATIOS } from './alibaba.ts'
import { ANTHROPIC_MODEL_RATIOS } from './anthropic.ts'
import { BAIDU_MODEL_RATIOS } from './baidu.ts'
import { COHERE_MODEL_RATIOS } from './cohere.ts'
import { DEEPSEEK_MODEL_RATIOS } from './deepseek.ts'
import { GOOGLE_MODEL_RATIOS } from './google.ts'
import { GROQ_MODEL_RATIOS } from './groq.ts'
import { MISTRAL_MODEL_RATIOS } from './mistral.ts'
import { MOONSHOT_MODEL_RATIOS } from './moonshot.ts'
import { OPENAI_MODEL_RATIOS } from './openai.ts'
import { OPENROUTER_MODEL_RATIOS } from './openrouter.ts'
import { OTHER_VENDOR_MODEL_RATIOS } from './other-vendors.ts'
import { REPLICATE_MODEL_RATIOS } from './replicate.ts'
import { TENCENT_MODEL_RATIOS } from './tencent.ts'
import { XAI_MODEL_RATIOS } from './xai.ts'
import { ZHIPU_MODEL_RATIOS } from './zhipu.ts'

const vendorTables = [
  OPENAI_MODEL_RATIOS,
  ANTHROPIC_MODEL_RATIOS,
  GOOGLE_MODEL_RATIOS,
  DEEPSEEK_MODEL_RATIOS,
  MISTRAL_MODEL_RATIOS,
  GROQ_MODEL_RATIOS,
  COHERE_MODEL_RATIOS,
  XAI_MODEL_RATIOS,
  ALIBABA_MODEL_RATIOS,
  BAIDU_MODEL_RATIOS,
  ZHIPU_MODEL_RATIOS,
  TENCENT_MODEL_RATIOS,
  MOONSHOT_MODEL_RATIOS,
  OTHER_VENDOR_MODEL_RATIOS,
  REPLICATE_MODEL_RATIOS,
  OPENROUTER_MODEL_RATIOS,
]

describe('price units', () => {
  it('match one-api: ratio 1 = $0.002 / 1K tokens, RMB as the real 500 / 7', () => {
    expect(USD).toBe(500)
    expect(MILLI_USD).toBe(0.5)
    expect(RMB).toBeCloseTo(71.428571, 6)
    expect(RMB).not.toBe(71)
    expect(MILLI_RMB).toBeCloseTo(0.0714286, 7)
  })

  it('converts ratios to USD per 1M tokens and back for the price view', () => {
    expect(ratioToUsdPerMillionTokens(2.5)).toBe(5) // gpt-4o $5 / 1M input
    expect(ratioToUsdPerMillionTokens(0.075)).toBeCloseTo(0.15, 12)
    expect(usdPerMillionTokensToRatio(15)).toBe(7.5)
    expect(completionUsdPerMillionTokens(2.5, 4)).toBe(20)
    for (const ratio of Object.values(DEFAULT_MODEL_RATIOS)) {
      expect(usdPerMillionTokensToRatio(ratioToUsdPerMillionTokens(ratio))).toBeCloseTo(ratio, 12)
    }
  })
})

describe('default ratio tables', () => {
  it('hold several hundred usable prices with no model listed by two vendors', () => {
    const keys = Object.keys(DEFAULT_MODEL_RATIOS)
    expect(keys.length).toBeGreaterThan(500)
    const vendorKeyCount = vendorTables.reduce((sum, table) => sum + Object.keys(table).length, 0)
    expect(vendorKeyCount).toBe(keys.length)
    for (const [model, ratio] of Object.entries(DEFAULT_MODEL_RATIOS)) {
      expect(Number.isFinite(ratio) && ratio >= 0, model).toBe(true)
    }
    expect(Object.isFrozen(DEFAULT_MODEL_RATIOS)).toBe(true)
  })

  it("carry one-api's prices", () => {
    const expected: Record<string, number> = {
      'gpt-3.5-turbo': 0.25,
      'gpt-4': 15,
      'gpt-4o': 2.5,
      'gpt-4o-mini': 0.075,
      o1: 7.5,
      'o3-mini': 1.5,
      'chatgpt-4o-latest': 2.5,
      'text-embedding-3-small': 0.01,
      'text-moderation-latest': 0.1,
      'whisper-1': 15,
      'tts-1': 7.5,
      'dall-e-3': 20,
      'claude-3-opus-20240229': 7.5,
      'claude-3-5-haiku-20241022': 0.5,
      'gemini-1.5-flash-8b': 0.01875,
      'deepseek-chat': 0.07,
      'deepseek-reasoner': 0.275,
      'mistral-large-latest': 4,
      'command-r-plus': 1.5,
      'grok-beta': 2.5,
      'deepl-en': 12.5,
      'glm-4-flash': 0,
    }
    for (const [model, ratio] of Object.entries(expected))
      expect(DEFAULT_MODEL_RATIOS[model], model).toBeCloseTo(ratio, 12)
    expect(DEFAULT_MODEL_RATIOS['qwen-max']).toBeCloseTo(0.0024 * RMB, 12)
    expect(DEFAULT_MODEL_RATIOS['llama3-8b-8192(33)']).toBeCloseTo(0.15, 12)
  })

  it('leave out OpenRouter auto, which one-api priced at -500000 (a credit per token)', () => {
    expect(Object.hasOwn(DEFAULT_MODEL_RATIOS, 'openrouter/auto')).toBe(false)
  })

  it('list explicit completion ratios', () => {
    expect(DEFAULT_COMPLETION_RATIOS['whisper-1']).toBe(0)
    expect(DEFAULT_COMPLETION_RATIOS['deepseek-chat']).toBe(2)
    expect(DEFAULT_COMPLETION_RATIOS['deepseek-reasoner']).toBeCloseTo(3.98, 2)
    for (const ratio of Object.values(DEFAULT_COMPLETION_RATIOS)) expect(ratio).toBeGreaterThanOrEqual(0)
  })

  it('default the group ratios as the GroupRatio option does', () => {
    expect(DEFAULT_GROUP_RATIOS).toEqual({ default: 1, vip: 1, svip: 1 })
    expect(JSON.parse(OPTION_DEFINITIONS.GroupRatio.default)).toEqual(DEFAULT_GROUP_RATIOS)
  })
})
