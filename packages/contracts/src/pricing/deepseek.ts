import { MILLI_USD } from './units.ts'

/**
 * DeepSeek (https://api-docs.deepseek.com/quick_start/pricing): input price per 1M tokens (cache miss).
 */
export const DEEPSEEK_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'deepseek-chat': 0.14 * MILLI_USD,
  'deepseek-reasoner': 0.55 * MILLI_USD,
}
