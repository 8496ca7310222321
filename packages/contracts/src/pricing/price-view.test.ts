import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  pricesOfRatios,
  priceUnitOf,
  ratioOfUsdPerMillion,
  ratiosOfPrices,
  usdPerImage,
  usdPerMillion,
} from './price-view.ts'

describe('price view of the ratios', () => {
  it('reads ratio 1 as $2 per 1M tokens and $2 per 1M tokens as ratio 1', () => {
    expect(usdPerMillion(1)).toBe(2)
    expect(ratioOfUsdPerMillion(2)).toBe(1)
    // gpt-4o: $2.50 input, $10 output (completion ratio 4), cached input at half price.
    expect(pricesOfRatios(1.25, 4)).toEqual({ input: 2.5, output: 10, cachedInput: 1.25 })
    // gpt-4o-mini: $0.15 / $0.60.
    expect(pricesOfRatios(0.075, 4)).toEqual({ input: 0.15, output: 0.6, cachedInput: 0.075 })
  })

  it('turns typed dollars into the ratios one-api stores', () => {
    expect(ratiosOfPrices(2.5, 10)).toEqual({ ok: true, modelRatio: 1.25, completionRatio: 4 })
    expect(ratiosOfPrices(0.15, 0.6)).toEqual({ ok: true, modelRatio: 0.075, completionRatio: 4 })
    expect(ratiosOfPrices(3, undefined)).toEqual({ ok: true, modelRatio: 1.5, completionRatio: undefined })
    expect(ratiosOfPrices(0, 0)).toEqual({ ok: true, modelRatio: 0, completionRatio: 1 })
  })

  it('refuses prices that no ratio can express', () => {
    expect(ratiosOfPrices(0, 1)).toEqual({ ok: false, error: 'output-without-input' })
    expect(ratiosOfPrices(-1, 1)).toEqual({ ok: false, error: 'negative' })
    expect(ratiosOfPrices(1, -1)).toEqual({ ok: false, error: 'negative' })
    expect(ratiosOfPrices(Number.NaN, undefined)).toEqual({ ok: false, error: 'negative' })
  })

  it('gives back the typed prices after a round trip through the ratios (cents to 1/10000 of a cent)', () => {
    const price = fc.integer({ min: 1, max: 100_000_000 }).map((units) => units / 1_000_000)
    fc.assert(
      fc.property(price, price, (input, output) => {
        const ratios = ratiosOfPrices(input, output)
        if (!ratios.ok) throw new Error('positive prices are always expressible')
        expect(pricesOfRatios(ratios.modelRatio, ratios.completionRatio)).toMatchObject({ input, output })
      }),
    )
  })

  it('gives back the stored ratio after a round trip through the input price', () => {
    const ratio = fc.integer({ min: 0, max: 10_000_000 }).map((units) => units / 10_000)
    fc.assert(fc.property(ratio, (value) => ratioOfUsdPerMillion(usdPerMillion(value)) === value))
  })

  it('prices image models per image and speech per character', () => {
    expect(priceUnitOf('dall-e-3')).toBe('image')
    expect(priceUnitOf('black-forest-labs/flux-schnell')).toBe('image')
    expect(priceUnitOf('gpt-image-1')).toBe('token')
    expect(priceUnitOf('tts-1-hd')).toBe('character')
    expect(priceUnitOf('whisper-1')).toBe('token')
    expect(priceUnitOf('gpt-4o')).toBe('token')
    expect(usdPerImage(20)).toBe(0.04)
  })
})
