import { MILLI_USD } from './units.ts'

/**
 * Mistral AI (https://mistral.ai/pricing): input price per 1M tokens.
 */
export const MISTRAL_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'open-mistral-7b': 0.25 * MILLI_USD,
  'open-mixtral-8x7b': 0.7 * MILLI_USD,
  'mistral-small-latest': 2 * MILLI_USD,
  'mistral-medium-latest': 2.7 * MILLI_USD,
  'mistral-large-latest': 8 * MILLI_USD,
  'mistral-embed': 0.1 * MILLI_USD,
  'open-mistral-nemo': 0.15 * MILLI_USD,
  'codestral-latest': 0.3 * MILLI_USD,
}
