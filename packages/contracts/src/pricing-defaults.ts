/**
 * Built-in prices: one-api's default ModelRatio / CompletionRatio / GroupRatio tables and their units.
 * The ModelRatio option stored by the administrator is an override layer on top of these defaults
 * (see apps/server/src/billing/pricing/model-ratio.ts for the lookup order).
 *
 * Ratio 1 = $0.002 per 1K input tokens = $2 per 1M input tokens; at ratio 1 a token costs 1 quota.
 */
import { ALIBABA_MODEL_RATIOS } from './pricing/alibaba.ts'
import { ANTHROPIC_MODEL_RATIOS } from './pricing/anthropic.ts'
import { BAIDU_MODEL_RATIOS } from './pricing/baidu.ts'
import { COHERE_MODEL_RATIOS } from './pricing/cohere.ts'
import { DEEPSEEK_MODEL_RATIOS } from './pricing/deepseek.ts'
import { GOOGLE_MODEL_RATIOS } from './pricing/google.ts'
import { GROQ_MODEL_RATIOS } from './pricing/groq.ts'
import { MISTRAL_MODEL_RATIOS } from './pricing/mistral.ts'
import { MOONSHOT_MODEL_RATIOS } from './pricing/moonshot.ts'
import { OPENAI_MODEL_RATIOS } from './pricing/openai.ts'
import { OPENROUTER_MODEL_RATIOS } from './pricing/openrouter.ts'
import { OTHER_VENDOR_MODEL_RATIOS } from './pricing/other-vendors.ts'
import { REPLICATE_MODEL_RATIOS } from './pricing/replicate.ts'
import { TENCENT_MODEL_RATIOS } from './pricing/tencent.ts'
import { MILLI_USD } from './pricing/units.ts'
import { XAI_MODEL_RATIOS } from './pricing/xai.ts'
import { ZHIPU_MODEL_RATIOS } from './pricing/zhipu.ts'

export { DEFAULT_COMPLETION_RATIOS } from './pricing/completion-ratios.ts'
export {
  DALL_E_3_HD_OTHER_MULTIPLIER,
  DALL_E_3_HD_SQUARE_MULTIPLIER,
  DEFAULT_IMAGE_SIZE,
  IMAGE_OUTPUT_TOKENS,
  IMAGE_SIZE_RATIOS,
  PARTIAL_IMAGE_OUTPUT_TOKENS,
  TOKEN_PRICED_IMAGE_PREFIX,
} from './pricing/images.ts'
export { MILLI_RMB, MILLI_USD, RMB, USD, USD_TO_RMB } from './pricing/units.ts'

/** Every built-in model ratio, keyed by model name (or "name(channelType)" for per-channel-type prices). */
export const DEFAULT_MODEL_RATIOS: Readonly<Record<string, number>> = Object.freeze({
  ...OPENAI_MODEL_RATIOS,
  ...ANTHROPIC_MODEL_RATIOS,
  ...GOOGLE_MODEL_RATIOS,
  ...DEEPSEEK_MODEL_RATIOS,
  ...MISTRAL_MODEL_RATIOS,
  ...GROQ_MODEL_RATIOS,
  ...COHERE_MODEL_RATIOS,
  ...XAI_MODEL_RATIOS,
  ...ALIBABA_MODEL_RATIOS,
  ...BAIDU_MODEL_RATIOS,
  ...ZHIPU_MODEL_RATIOS,
  ...TENCENT_MODEL_RATIOS,
  ...MOONSHOT_MODEL_RATIOS,
  ...OTHER_VENDOR_MODEL_RATIOS,
  ...REPLICATE_MODEL_RATIOS,
  ...OPENROUTER_MODEL_RATIOS,
})

/** The GroupRatio option's default (one-api's): every group pays list price. */
export const DEFAULT_GROUP_RATIOS: Readonly<Record<string, number>> = Object.freeze({
  default: 1,
  vip: 1,
  svip: 1,
})

/** USD per 1M input tokens for a model ratio, for the console's price view (ratio 1 = $2 / 1M). */
export function ratioToUsdPerMillionTokens(ratio: number): number {
  return ratio / MILLI_USD
}

/** The model ratio that charges `usd` per 1M input tokens (inverse of ratioToUsdPerMillionTokens). */
export function usdPerMillionTokensToRatio(usd: number): number {
  return usd * MILLI_USD
}

/** USD per 1M output tokens: the input price times the completion ratio. */
export function completionUsdPerMillionTokens(ratio: number, completionRatio: number): number {
  return ratioToUsdPerMillionTokens(ratio) * completionRatio
}
