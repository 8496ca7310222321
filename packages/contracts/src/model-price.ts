import type { PriceUnit } from './pricing/price-view.ts'

/**
 * One model of `GET /api/user/available_models?prices=true`: what the signed-in user pays for it,
 * after their group's ratio. Prices are US dollars per 1M tokens (per 1M characters for speech,
 * per standard image for image models); null when the model has no price (the relay refuses it
 * until an administrator prices it). When channels of different types price a model differently,
 * the highest price is given: the most a request can cost.
 */
export interface ModelPriceView {
  model: string
  unit: PriceUnit
  model_ratio: number | null
  completion_ratio: number | null
  group_ratio: number
  input: number | null
  output: number | null
  cached_input: number | null
  /** The enabled channels serving the model: for administrators only. */
  channels?: ModelChannelView[]
}

export interface ModelChannelView {
  id: number
  name: string
  type: number
}
