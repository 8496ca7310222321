import { DEFAULT_COMPLETION_RATIOS } from '@one-api/contracts/pricing-defaults'
import { billingModelName, lookupModelKeyed, type RatioTable, readRatio } from './ratio-table.ts'

/**
 * How many input tokens one output token costs for `model`: the administrator's CompletionRatio option
 * (`liveRatios`) over the built-in explicit map (same "name(type)" lookup order as model ratios), then
 * the family rules below, else 1.
 */
export function resolveCompletionRatio(
  model: string,
  channelType: number | undefined,
  liveRatios?: RatioTable,
): number {
  return (
    lookupModelKeyed(model, channelType, liveRatios, DEFAULT_COMPLETION_RATIOS) ??
    completionRatioByFamily(billingModelName(model))
  )
}

/** Output prices of whole model families, relative to their input price (one-api's rules, fixed where noted). */
function completionRatioByFamily(name: string): number {
  if (name.startsWith('gpt-3.5')) {
    if (name === 'gpt-3.5-turbo' || name.endsWith('0125')) return 3
    if (name.endsWith('1106')) return 2
    return 4 / 3
  }
  // gpt-4.1 ($2 / $8) and gpt-4.5 ($75 / $150) would otherwise fall into the gpt-4 rules below.
  if (name.startsWith('gpt-4.1')) return 4
  if (name.startsWith('gpt-4.5')) return 2
  if (name.startsWith('gpt-4o')) return name === 'gpt-4o-2024-05-13' ? 3 : 4
  if (name.startsWith('gpt-4')) {
    if (name.startsWith('gpt-4-turbo') || name.endsWith('preview')) return 3
    return 2
  }
  // gpt-5, -mini, -nano: $1.25 / $10, $0.25 / $2, $0.05 / $0.40.
  if (name.startsWith('gpt-5')) return 8
  // o-series reasoning models: output costs 4x input. One-api left o3-mini at 1 (a bug).
  if (name.startsWith('o1') || name.startsWith('o3') || name.startsWith('o4')) return 4
  if (name === 'chatgpt-4o-latest') return 3
  if (name.startsWith('claude-3') || /^claude-(opus|sonnet|haiku)-4/.test(name)) return 5
  if (name.startsWith('claude-')) return 3
  if (name.startsWith('mistral-')) return 3
  if (name.startsWith('gemini-')) return 3
  if (name.startsWith('deepseek-')) return 2
  return readRatio(EXACT_COMPLETION_RATIOS, name) ?? commandRatio(name) ?? 1
}

const EXACT_COMPLETION_RATIOS: Readonly<Record<string, number>> = {
  'llama2-70b-4096': 0.8 / 0.64,
  'llama3-8b-8192': 2,
  'llama3-70b-8192': 0.79 / 0.59,
  'command-r': 3,
  'command-r-plus': 5,
  'grok-beta': 3,
}

/** Cohere's legacy command models (command, command-light, command-nightly, ...) cost 2x on output. */
function commandRatio(name: string): number | undefined {
  return name.startsWith('command') ? 2 : undefined
}
