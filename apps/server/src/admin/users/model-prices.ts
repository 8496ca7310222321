import { parseModelMapping } from '@one-api/contracts/channel'
import type { ModelChannelView, ModelPriceView } from '@one-api/contracts/model-price'
import {
  pricesOfRatios,
  priceUnitOf,
  usdPerImage,
  usdPerMillion,
} from '@one-api/contracts/pricing/price-view'
import { resolveGroupRatio } from '../../billing/pricing/group-ratio.ts'
import { type ResolvedPricing, resolvePricing } from '../../billing/pricing/resolve-pricing.ts'
import type { OptionsStore } from '../../config/options-store.ts'
import type { ModelChannelRow } from '../../db/repositories/abilities-repository.ts'

/** What the user pays per unit of a model, after the group ratio, in the model's price unit. */
function pricesOf(model: string, pricing: ResolvedPricing | undefined) {
  if (!pricing) return { input: null, output: null, cached_input: null }
  const ratio = pricing.modelRatio * pricing.groupRatio
  const unit = priceUnitOf(model)
  if (unit === 'image') return { input: usdPerImage(ratio), output: null, cached_input: null }
  if (unit === 'character') return { input: usdPerMillion(ratio), output: null, cached_input: null }
  const prices = pricesOfRatios(ratio, pricing.completionRatio)
  return { input: prices.input, output: prices.output ?? null, cached_input: prices.cachedInput }
}

/** The billed model name on a channel: its model redirect applies first, as in the relay. */
function billedName(row: ModelChannelRow): string {
  const mapping = row.modelMapping ? parseModelMapping(row.modelMapping) : undefined
  return (mapping && Object.hasOwn(mapping, row.model) && mapping[row.model]) || row.model
}

/**
 * The price list of the models reachable through `rows` for a user of `group`: each model priced as
 * the dearest of its channels would bill it. `withChannels` adds the channels (administrators).
 */
export function modelPriceList(
  rows: readonly ModelChannelRow[],
  group: string,
  options: OptionsStore,
  withChannels: boolean,
): ModelPriceView[] {
  const live = {
    modelRatios: options.ratios('ModelRatio'),
    completionRatios: options.ratios('CompletionRatio'),
    groupRatios: options.ratios('GroupRatio'),
  }
  const byModel = new Map<string, { pricing: ResolvedPricing | undefined; channels: ModelChannelView[] }>()
  for (const row of rows) {
    const entry = byModel.get(row.model) ?? { pricing: undefined, channels: [] }
    const pricing = resolvePricing(billedName(row), row.channelType, group, live)
    if (pricing && (!entry.pricing || pricing.modelRatio > entry.pricing.modelRatio)) entry.pricing = pricing
    entry.channels.push({ id: row.channelId, name: row.channelName, type: row.channelType })
    byModel.set(row.model, entry)
  }
  const groupRatio = resolveGroupRatio(group, live.groupRatios)
  return [...byModel].map(([model, entry]) => ({
    model,
    unit: priceUnitOf(model),
    model_ratio: entry.pricing?.modelRatio ?? null,
    completion_ratio: entry.pricing?.completionRatio ?? null,
    group_ratio: groupRatio,
    ...pricesOf(model, entry.pricing),
    ...(withChannels ? { channels: entry.channels } : {}),
  }))
}
