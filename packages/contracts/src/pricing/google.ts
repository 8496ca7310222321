import { MILLI_USD } from './units.ts'

/**
 * Google Gemini (https://ai.google.dev/pricing): input price per 1M tokens.
 */
export const GOOGLE_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'gemini-pro': 0.25 * MILLI_USD,
  'gemini-1.0-pro': 0.125 * MILLI_USD,
  'gemini-1.5-pro': 1.25 * MILLI_USD,
  'gemini-1.5-pro-001': 1.25 * MILLI_USD,
  'gemini-1.5-pro-experimental': 1.25 * MILLI_USD,
  'gemini-1.5-flash': 0.075 * MILLI_USD,
  'gemini-1.5-flash-001': 0.075 * MILLI_USD,
  'gemini-1.5-flash-8b': 0.0375 * MILLI_USD,
  'gemini-2.0-flash-exp': 0.075 * MILLI_USD,
  'gemini-2.0-flash': 0.15 * MILLI_USD,
  'gemini-2.0-flash-001': 0.15 * MILLI_USD,
  'gemini-2.0-flash-lite-preview-02-05': 0.075 * MILLI_USD,
  'gemini-2.0-flash-thinking-exp-01-21': 0.075 * MILLI_USD,
  'gemini-2.0-pro-exp-02-05': 1.25 * MILLI_USD,
  aqa: 1,
  'gemini-2.5-pro': 1.25 * MILLI_USD,
  'gemini-2.5-flash': 0.3 * MILLI_USD,
  'gemini-2.5-flash-lite': 0.1 * MILLI_USD,
}
