import { DEFAULT_MODEL_RATIOS } from '@one-api/contracts/pricing-defaults'
import { lookupModelKeyed, type RatioTable } from './ratio-table.ts'

/**
 * The input price ratio of `model` on a channel of `channelType`, from the administrator's ModelRatio
 * option (`liveRatios`) over the built-in defaults; "llama3-8b-8192(33)" style keys price a model per
 * channel type and win over the plain name.
 *
 * Unlike one-api, which silently charged ratio 30 for any model it did not know, an unknown model
 * returns undefined: the relay refuses it with a clear message until an administrator prices it.
 */
export function resolveModelRatio(
  model: string,
  channelType: number | undefined,
  liveRatios?: RatioTable,
): number | undefined {
  return lookupModelKeyed(model, channelType, liveRatios, DEFAULT_MODEL_RATIOS)
}
