import { describe, expect, it } from 'vitest'
import {
  ceilQuota,
  computeImageQuota,
  computeReservation,
  computeSpeechQuota,
  computeTextQuota,
  computeTranscriptionQuota,
  DEFAULT_CACHED_PROMPT_RATIO,
  describeRatios,
  imageCostRatio,
} from './quota.ts'

const gpt4o = { modelRatio: 2.5, completionRatio: 4, groupRatio: 1 }

describe('computeTextQuota', () => {
  it('charges ceil((prompt + completion × completionRatio) × modelRatio × groupRatio)', () => {
    // ceil((1000 + 500 × 4) × 2.5) = 7500 quota = $0.015
    expect(computeTextQuota({ promptTokens: 1000, completionTokens: 500, ...gpt4o })).toBe(7500)
    expect(computeTextQuota({ promptTokens: 1000, completionTokens: 500, ...gpt4o, groupRatio: 0.5 })).toBe(
      3750,
    )
    // gpt-3.5-turbo-0613: (1 + 1 × 4/3) × 0.75 = 1.75 -> 2
    expect(
      computeTextQuota({
        promptTokens: 1,
        completionTokens: 1,
        modelRatio: 0.75,
        completionRatio: 4 / 3,
        groupRatio: 1,
      }),
    ).toBe(2)
  })

  it('does not round floating-point noise up to an extra quota point', () => {
    // 1000 × 0.075 is 75.00000000000001 in binary floating point.
    const mini = { modelRatio: 0.075, completionRatio: 4, groupRatio: 1 }
    expect(computeTextQuota({ promptTokens: 1000, completionTokens: 0, ...mini })).toBe(75)
    expect(computeTextQuota({ promptTokens: 1000, completionTokens: 1000, ...mini })).toBe(375)
  })

  it('bills cached prompt tokens at half the input price by default, or at the given ratio', () => {
    expect(DEFAULT_CACHED_PROMPT_RATIO).toBe(0.5)
    // (600 uncached + 400 × 0.5) × 2.5 = 2000
    expect(computeTextQuota({ promptTokens: 1000, completionTokens: 0, cachedTokens: 400, ...gpt4o })).toBe(
      2000,
    )
    // (600 + 400 × 0.25) × 2.5 = 1750
    expect(
      computeTextQuota({
        promptTokens: 1000,
        completionTokens: 0,
        cachedTokens: 400,
        cachedRatio: 0.25,
        ...gpt4o,
      }),
    ).toBe(1750)
    // More cached tokens than prompt tokens is nonsense from upstream: clamp to the prompt.
    expect(computeTextQuota({ promptTokens: 1000, completionTokens: 0, cachedTokens: 5000, ...gpt4o })).toBe(
      1250,
    )
  })

  it("bills prompt-cache writes at their ratio, reads at theirs, and the rest at the input price (Anthropic's prices)", () => {
    const claude = {
      modelRatio: 1.5,
      completionRatio: 5,
      groupRatio: 1,
      cachedRatio: 0.1,
      cacheWriteRatio: 1.25,
    }
    // 100 uncached + 800 read × 0.1 + 100 written × 1.25 + 10 output × 5, at 1.5.
    expect(
      computeTextQuota({
        promptTokens: 1000,
        completionTokens: 10,
        cachedTokens: 800,
        cacheWriteTokens: 100,
        ...claude,
      }),
    ).toBe(Math.ceil((100 + 80 + 125 + 50) * 1.5))
    // Writes beyond the uncached part are not billed twice.
    expect(
      computeTextQuota({
        promptTokens: 1000,
        completionTokens: 0,
        cachedTokens: 800,
        cacheWriteTokens: 900,
        ...claude,
      }),
    ).toBe(Math.ceil((80 + 200 * 1.25) * 1.5))
  })

  it('counts reasoning tokens once, as part of the completion tokens', () => {
    // o1: 100 prompt, 1000 completion of which 800 are reasoning: (100 + 1000 × 4) × 7.5
    expect(
      computeTextQuota({
        promptTokens: 100,
        completionTokens: 1000,
        modelRatio: 7.5,
        completionRatio: 4,
        groupRatio: 1,
      }),
    ).toBe(30750)
  })

  it('costs at least 1 when tokens were used on a priced model, 0 with no tokens or a free price', () => {
    const whisper = { modelRatio: 15, completionRatio: 0, groupRatio: 1 }
    expect(computeTextQuota({ promptTokens: 0, completionTokens: 10, ...whisper })).toBe(1)
    expect(computeTextQuota({ promptTokens: 0, completionTokens: 0, ...gpt4o })).toBe(0)
    expect(computeTextQuota({ promptTokens: 500, completionTokens: 500, ...gpt4o, modelRatio: 0 })).toBe(0)
    expect(computeTextQuota({ promptTokens: 500, completionTokens: 500, ...gpt4o, groupRatio: 0 })).toBe(0)
  })

  it('treats garbage token counts from upstream as zero', () => {
    expect(computeTextQuota({ promptTokens: Number.NaN, completionTokens: -5, ...gpt4o })).toBe(0)
    expect(computeTextQuota({ promptTokens: 10.7, completionTokens: 0, ...gpt4o })).toBe(25)
  })

  it('refuses negative or non-finite ratios, which would credit the user', () => {
    expect(() =>
      computeTextQuota({ promptTokens: 10, completionTokens: 0, ...gpt4o, modelRatio: -1 }),
    ).toThrow(/model ratio/)
    expect(() =>
      computeTextQuota({ promptTokens: 10, completionTokens: 0, ...gpt4o, completionRatio: Number.NaN }),
    ).toThrow(/completion ratio/)
  })
})

describe('computeReservation', () => {
  it('reserves the worst case when max tokens is given', () => {
    // (500 + 1000 + 500 × 4) × 2.5 = 8750
    expect(computeReservation({ preConsumedQuota: 500, promptTokens: 1000, maxTokens: 500, ...gpt4o })).toBe(
      8750,
    )
    expect(
      computeReservation({
        preConsumedQuota: 500,
        promptTokens: 1000,
        maxTokens: 500,
        ...gpt4o,
        groupRatio: 2,
      }),
    ).toBe(17500)
  })

  it('reserves PreConsumedQuota + prompt without max tokens', () => {
    expect(computeReservation({ preConsumedQuota: 500, promptTokens: 1000, ...gpt4o })).toBe(3750)
    expect(computeReservation({ preConsumedQuota: 500, promptTokens: 1000, maxTokens: 0, ...gpt4o })).toBe(
      3750,
    )
    // Audio transcription: no prompt, whisper-1 at 15 -> 7500
    expect(
      computeReservation({
        preConsumedQuota: 500,
        promptTokens: 0,
        modelRatio: 15,
        completionRatio: 0,
        groupRatio: 1,
      }),
    ).toBe(7500)
  })

  it('rounds up', () => {
    expect(
      computeReservation({
        preConsumedQuota: 0,
        promptTokens: 3,
        modelRatio: 0.075,
        completionRatio: 4,
        groupRatio: 1,
      }),
    ).toBe(1)
  })
})

describe('image quota', () => {
  it('applies size ratios and the dall-e-3 hd multipliers', () => {
    expect(imageCostRatio('dall-e-3', '1024x1024')).toBe(1)
    expect(imageCostRatio('dall-e-3', '1024x1024', 'hd')).toBe(2)
    expect(imageCostRatio('dall-e-3', '1024x1792', 'hd')).toBe(3)
    expect(imageCostRatio('dall-e-2', '512x512')).toBe(1.125)
    expect(imageCostRatio('dall-e-2', '1024x1024', 'hd')).toBe(1.25)
    expect(imageCostRatio('dall-e-2')).toBe(1.25)
    expect(imageCostRatio('black-forest-labs/flux-schnell', '1440x1440')).toBe(1)
  })

  it('charges dall-e-3 hd 1024x1792 n=2 at $0.12 an image', () => {
    // 20 × 2 × 1.5 × 1000 = 60 000 per image ($0.12), × 2
    const quota = computeImageQuota({
      model: 'dall-e-3',
      size: '1024x1792',
      quality: 'hd',
      n: 2,
      modelRatio: 20,
      groupRatio: 1,
    })
    expect(quota).toBe(120_000)
    expect(quota / 500_000).toBeCloseTo(0.24, 10)
  })

  it('charges standard sizes, n and the group ratio', () => {
    expect(computeImageQuota({ model: 'dall-e-3', modelRatio: 20, groupRatio: 1 })).toBe(20_000)
    expect(
      computeImageQuota({ model: 'dall-e-2', size: '512x512', n: 3, modelRatio: 10, groupRatio: 1 }),
    ).toBe(33_750)
    expect(computeImageQuota({ model: 'dall-e-3', modelRatio: 20, groupRatio: 0.5 })).toBe(10_000)
    expect(
      computeImageQuota({ model: 'black-forest-labs/flux-schnell', n: 1, modelRatio: 1.5, groupRatio: 1 }),
    ).toBe(1500)
  })
})

describe('speech and transcription quota', () => {
  it('charges TTS per character times model and group ratio', () => {
    // tts-1: 7.5 per character -> 7 500 quota = $0.015 per 1 000 characters
    expect(computeSpeechQuota({ input: 'a'.repeat(1000), modelRatio: 7.5, groupRatio: 1 })).toBe(7500)
    expect(computeSpeechQuota({ input: 'a'.repeat(1000), modelRatio: 7.5, groupRatio: 2 })).toBe(15_000)
    // Characters, not UTF-8 bytes: 1 000 Chinese characters cost the same as 1 000 Latin ones.
    expect(computeSpeechQuota({ input: '你'.repeat(1000), modelRatio: 7.5, groupRatio: 1 })).toBe(7500)
    expect(computeSpeechQuota({ input: '😀😀', modelRatio: 15, groupRatio: 1 })).toBe(30)
    expect(computeSpeechQuota({ input: '', modelRatio: 7.5, groupRatio: 1 })).toBe(0)
    expect(computeSpeechQuota({ input: 'a', modelRatio: 0.01, groupRatio: 1 })).toBe(1)
  })

  it('charges transcripts per token times model and group ratio', () => {
    // whisper-1: 200 tokens (about a minute) × 15 = 3000 quota = $0.006
    expect(computeTranscriptionQuota({ textTokens: 200, modelRatio: 15, groupRatio: 1 })).toBe(3000)
    expect(computeTranscriptionQuota({ textTokens: 200, modelRatio: 15, groupRatio: 0.5 })).toBe(1500)
    expect(computeTranscriptionQuota({ textTokens: 0, modelRatio: 15, groupRatio: 1 })).toBe(0)
  })
})

describe('describeRatios and ceilQuota', () => {
  it('formats the log line with two decimals, or more where two would round the ratio', () => {
    expect(describeRatios(2.5, 1, 4)).toBe('model ratio 2.50, group ratio 1.00, completion ratio 4.00')
    expect(describeRatios(0.075, 0.8, 4 / 3)).toBe(
      'model ratio 0.075, group ratio 0.80, completion ratio 1.33333',
    )
    expect(describeRatios(0.0005, 0.125)).toBe('model ratio 0.0005, group ratio 0.125')
    expect(describeRatios(20, 1)).toBe('model ratio 20.00, group ratio 1.00')
  })

  it('rounds real fractions up and never returns a negative quota', () => {
    expect(ceilQuota(7500.2)).toBe(7501)
    expect(ceilQuota(0.3)).toBe(1)
    expect(ceilQuota(-4)).toBe(0)
    expect(ceilQuota(75.00000000000001)).toBe(75)
  })
})
