import { MILLI_USD } from './units.ts'

/**
 * Cohere (https://cohere.com/pricing). The legacy command models keep one-api's flat ratio 0.5.
 */
export const COHERE_MODEL_RATIOS: Readonly<Record<string, number>> = {
  command: 0.5,
  'command-nightly': 0.5,
  'command-light': 0.5,
  'command-light-nightly': 0.5,
  'command-r': 0.5 * MILLI_USD,
  'command-r-plus': 3 * MILLI_USD,
}
