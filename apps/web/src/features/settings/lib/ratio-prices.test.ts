import { describe, expect, it } from 'vitest'
import { applyPrices, formatRatioTable, parsePrice, parseRatioTable, priceRowOf } from './ratio-prices.ts'

describe('ratio tables as prices', () => {
  const models = { 'gpt-4o': 1.25, 'dall-e-3': 20, 'tts-1': 7.5, 'my-model': 1 }
  const completions = { 'gpt-4o': 4 }

  it('shows ratios as dollars per 1M tokens, per image and per 1M characters', () => {
    expect(priceRowOf('gpt-4o', models, completions)).toEqual({
      model: 'gpt-4o',
      unit: 'token',
      input: 2.5,
      output: 10,
      cachedInput: 1.25,
    })
    expect(priceRowOf('my-model', models, completions)).toMatchObject({ input: 2, output: undefined })
    expect(priceRowOf('dall-e-3', models, completions)).toMatchObject({ unit: 'image', input: 0.04 })
    expect(priceRowOf('tts-1', models, completions)).toMatchObject({ unit: 'character', input: 15 })
  })

  it('writes typed dollars back as the ratios', () => {
    const edit = applyPrices(models, completions, 'my-model', 0.15, 0.6)
    expect(edit).toMatchObject({ ok: true })
    if (!edit.ok) return
    expect(edit.models['my-model']).toBe(0.075)
    expect(edit.completions['my-model']).toBe(4)
    const image = applyPrices(models, completions, 'dall-e-3', 0.08, undefined)
    expect(image.ok && image.models['dall-e-3']).toBe(40)
  })

  it('removes a model whose prices are cleared, and refuses an output price alone', () => {
    const cleared = applyPrices(models, completions, 'gpt-4o', undefined, undefined)
    expect(cleared.ok && 'gpt-4o' in cleared.models).toBe(false)
    expect(cleared.ok && 'gpt-4o' in cleared.completions).toBe(false)
    expect(applyPrices(models, completions, 'gpt-4o', undefined, 3)).toEqual({
      ok: false,
      error: 'output-without-input',
    })
    expect(applyPrices(models, completions, 'gpt-4o', 0, 3)).toEqual({
      ok: false,
      error: 'output-without-input',
    })
  })

  it('reads and writes the JSON text', () => {
    expect(parseRatioTable('{"b":1,"a":0.5}')).toEqual({ b: 1, a: 0.5 })
    expect(parseRatioTable('[1]')).toBeUndefined()
    expect(parseRatioTable('{"a":"1"}')).toBeUndefined()
    expect(parseRatioTable('{oops')).toBeUndefined()
    expect(formatRatioTable({ b: 1, a: 0.5 })).toBe('{\n  "a": 0.5,\n  "b": 1\n}')
    expect(parsePrice(' 2.5 ')).toBe(2.5)
    expect(parsePrice('')).toBeUndefined()
    expect(parsePrice('abc')).toBe('invalid')
  })
})
