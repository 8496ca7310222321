import { MILLI_USD } from './units.ts'

/**
 * xAI Grok (https://docs.x.ai/docs/models): input price per 1M tokens.
 */
export const XAI_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'grok-beta': 5 * MILLI_USD,
  'grok-2-1212': 2 * MILLI_USD,
  'grok-2-vision-1212': 2 * MILLI_USD,
  'grok-3': 3 * MILLI_USD,
  'grok-3-mini': 0.3 * MILLI_USD,
  'grok-4': 3 * MILLI_USD,
}
