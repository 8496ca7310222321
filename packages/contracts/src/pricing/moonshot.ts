import { RMB } from './units.ts'

/**
 * Moonshot AI (https://platform.moonshot.cn/pricing): CNY per 1K tokens.
 */
export const MOONSHOT_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'moonshot-v1-8k': 0.012 * RMB,
  'moonshot-v1-32k': 0.024 * RMB,
  'moonshot-v1-128k': 0.06 * RMB,
}
