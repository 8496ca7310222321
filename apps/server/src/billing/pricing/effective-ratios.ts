import type { OptionKey } from '@one-api/contracts'
import { DEFAULT_COMPLETION_RATIOS, DEFAULT_MODEL_RATIOS } from '@one-api/contracts/pricing-defaults'
import type { RatioTable } from './ratio-table.ts'

/** The built-in prices under each price table option: what a model the stored table lacks costs. */
const BUILT_IN: Partial<Record<OptionKey, RatioTable>> = {
  ModelRatio: DEFAULT_MODEL_RATIOS,
  CompletionRatio: DEFAULT_COMPLETION_RATIOS,
}

/**
 * The price table in force for `key`, as one-api shows it: the built-in prices with the stored
 * table over them (a stored price wins; a model it lacks keeps its built-in price, as one-api adds
 * missing ratios when it starts). Saving this table back changes nothing. GroupRatio has no
 * built-in entries beyond its default value: its stored table is the whole table.
 */
export function effectiveRatioTable(key: OptionKey, stored: RatioTable): RatioTable {
  const builtIn = BUILT_IN[key]
  return builtIn ? { ...builtIn, ...stored } : stored
}

/** Whether the option is a price table read back whole (see effectiveRatioTable). */
export function hasBuiltInRatios(key: OptionKey): boolean {
  return BUILT_IN[key] !== undefined
}
