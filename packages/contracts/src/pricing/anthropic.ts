import { MILLI_USD } from './units.ts'

/**
 * Anthropic (https://docs.anthropic.com/en/docs/about-claude/pricing): input price per 1M tokens.
 */
export const ANTHROPIC_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'claude-instant-1.2': 0.8 * MILLI_USD,
  'claude-2.0': 8 * MILLI_USD,
  'claude-2.1': 8 * MILLI_USD,
  'claude-3-haiku-20240307': 0.25 * MILLI_USD,
  'claude-3-5-haiku-20241022': 1 * MILLI_USD,
  'claude-3-5-haiku-latest': 1 * MILLI_USD,
  'claude-3-sonnet-20240229': 3 * MILLI_USD,
  'claude-3-5-sonnet-20240620': 3 * MILLI_USD,
  'claude-3-5-sonnet-20241022': 3 * MILLI_USD,
  'claude-3-5-sonnet-latest': 3 * MILLI_USD,
  'claude-3-opus-20240229': 15 * MILLI_USD,
  'claude-3-opus-latest': 15 * MILLI_USD,
  'claude-3-7-sonnet-20250219': 3 * MILLI_USD,
  'claude-3-7-sonnet-latest': 3 * MILLI_USD,
  'claude-sonnet-4-20250514': 3 * MILLI_USD,
  'claude-sonnet-4-0': 3 * MILLI_USD,
  'claude-sonnet-4-5-20250929': 3 * MILLI_USD,
  'claude-sonnet-4-5': 3 * MILLI_USD,
  'claude-opus-4-20250514': 15 * MILLI_USD,
  'claude-opus-4-0': 15 * MILLI_USD,
  'claude-opus-4-1-20250805': 15 * MILLI_USD,
  'claude-opus-4-1': 15 * MILLI_USD,
  'claude-haiku-4-5-20251001': 1 * MILLI_USD,
  'claude-haiku-4-5': 1 * MILLI_USD,
}
