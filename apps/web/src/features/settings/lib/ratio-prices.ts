import {
  type PriceUnit,
  pricesOfRatios,
  priceUnitOf,
  ratiosOfPrices,
  roundPrice,
  usdPerImage,
} from '@one-api/contracts/pricing/price-view'
import { USD } from '@one-api/contracts/pricing/units'

/** A ModelRatio or CompletionRatio table as the options hold it. */
export type RatioTable = Record<string, number>

/** The table in `text`, or undefined when it is not a JSON object of numbers. */
export function parseRatioTable(text: string): RatioTable | undefined {
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    const entries = Object.entries(value)
    if (!entries.every(([, ratio]) => typeof ratio === 'number' && Number.isFinite(ratio))) return undefined
    return Object.fromEntries(entries) as RatioTable
  } catch {
    return undefined
  }
}

/** The dollar prices shown for one model: per 1M tokens (or characters), or per image. */
export interface PriceRow {
  model: string
  unit: PriceUnit
  input: number | undefined
  /** Undefined when the model has no completion ratio of its own (the built-in rule applies). */
  output: number | undefined
  cachedInput: number | undefined
}

export function priceRowOf(model: string, models: RatioTable, completions: RatioTable): PriceRow {
  const unit = priceUnitOf(model)
  const ratio = Object.hasOwn(models, model) ? models[model] : undefined
  const completion = Object.hasOwn(completions, model) ? completions[model] : undefined
  if (ratio === undefined) return { model, unit, input: undefined, output: undefined, cachedInput: undefined }
  if (unit === 'image')
    return { model, unit, input: usdPerImage(ratio), output: undefined, cachedInput: undefined }
  const prices = pricesOfRatios(ratio, completion)
  if (unit === 'character')
    return { model, unit, input: prices.input, output: undefined, cachedInput: undefined }
  return { model, unit, ...prices }
}

/** Every model of either table, by name. */
export function pricedModels(models: RatioTable, completions: RatioTable): string[] {
  return [...new Set([...Object.keys(models), ...Object.keys(completions)])].sort()
}

export type PriceEdit =
  | { ok: true; models: RatioTable; completions: RatioTable }
  | { ok: false; error: 'negative' | 'output-without-input' }

/**
 * The tables after typing dollar prices for `model` (undefined: the price is removed, so the
 * built-in price or rule applies again). Image models take their price per image.
 */
export function applyPrices(
  models: RatioTable,
  completions: RatioTable,
  model: string,
  input: number | undefined,
  output: number | undefined,
): PriceEdit {
  const nextModels = { ...models }
  const nextCompletions = { ...completions }
  if (input === undefined) {
    delete nextModels[model]
    if (output !== undefined) return { ok: false, error: 'output-without-input' }
    delete nextCompletions[model]
    return { ok: true, models: nextModels, completions: nextCompletions }
  }
  if (priceUnitOf(model) === 'image') {
    if (!(input >= 0)) return { ok: false, error: 'negative' }
    nextModels[model] = roundPrice(input * USD)
    return { ok: true, models: nextModels, completions: nextCompletions }
  }
  const ratios = ratiosOfPrices(input, output)
  if (!ratios.ok) return ratios
  nextModels[model] = ratios.modelRatio
  if (ratios.completionRatio === undefined) delete nextCompletions[model]
  else nextCompletions[model] = ratios.completionRatio
  return { ok: true, models: nextModels, completions: nextCompletions }
}

/** A typed price: '' is no price, anything else must be a number. */
export function parsePrice(text: string): number | undefined | 'invalid' {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : 'invalid'
}

/** Tables are written back as indented JSON, one model a line, in name order. */
export function formatRatioTable(table: RatioTable): string {
  const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return JSON.stringify(sorted, null, 2)
}
