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
  readonly modelRatio: number
  readonly completionRatio: number
  readonly groupRatio: number
}

/**
 * Prices already resolved, per model, channel type and group, for the live tables they were read
 * from: a request for a model seen before costs one lookup instead of up to eight. Emptied when a
 * table changes (the options store hands out a new object then) or when it grows past its limit.
 */
const resolved = new Map<string, ResolvedPricing | null>()
const RESOLVED_LIMIT = 10_000
let resolvedFrom: LiveRatioOptions = {}

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
  if (
    live.modelRatios !== resolvedFrom.modelRatios ||
    live.completionRatios !== resolvedFrom.completionRatios ||
    live.groupRatios !== resolvedFrom.groupRatios
  ) {
    resolved.clear()
    resolvedFrom = { ...live }
  }
  const key = `${model}\n${channelType}\n${group}`
  let pricing = resolved.get(key)
  if (pricing === undefined) {
    if (resolved.size >= RESOLVED_LIMIT) resolved.clear()
    pricing = resolveUncached(model, channelType, group, live) ?? null
    resolved.set(key, pricing)
  }
  return pricing ?? undefined
}

function resolveUncached(
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
