import { resolveCompletionRatio } from './completion-ratio.ts'
import { resolveGroupRatio } from './group-ratio.ts'
import { resolveModelRatio } from './model-ratio.ts'
import type { RatioTable } from './ratio-table.ts'

/** The three ratio options as the options store holds them (parsed JSON maps). */
export interface LiveRatioOptions {
  modelRatios?: RatioTable
  completionRatios?: RatioTable
  groupRatios?: RatioTable
}

export interface ResolvedPricing {
  modelRatio: number
  completionRatio: number
  groupRatio: number
}

/**
 * Everything the billing of one request needs, or undefined when the model has no price (the relay
 * then refuses the request instead of guessing one). `model` is the name billed: after model mapping.
 */
export function resolvePricing(
  model: string,
  channelType: number | undefined,
  group: string,
  live: LiveRatioOptions,
): ResolvedPricing | undefined {
  const modelRatio = resolveModelRatio(model, channelType, live.modelRatios)
  if (modelRatio === undefined) return undefined
  return {
    modelRatio,
    completionRatio: resolveCompletionRatio(model, channelType, live.completionRatios),
    groupRatio: resolveGroupRatio(group, live.groupRatios),
  }
}
