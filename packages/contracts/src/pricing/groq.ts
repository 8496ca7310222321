import { MILLI_USD } from './units.ts'

/**
 * Groq (https://groq.com/pricing): input price per 1M tokens.
 * one-api divided these per-1M prices by 1 000 000 a second time, making them 1000x too cheap; fixed here.
 */
export const GROQ_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'gemma-7b-it': 0.07 * MILLI_USD,
  'gemma2-9b-it': 0.2 * MILLI_USD,
  'llama-3.1-70b-versatile': 0.59 * MILLI_USD,
  'llama-3.1-8b-instant': 0.05 * MILLI_USD,
  'llama-3.2-11b-text-preview': 0.05 * MILLI_USD,
  'llama-3.2-11b-vision-preview': 0.05 * MILLI_USD,
  'llama-3.2-1b-preview': 0.05 * MILLI_USD,
  'llama-3.2-3b-preview': 0.05 * MILLI_USD,
  'llama-3.2-90b-text-preview': 0.59 * MILLI_USD,
  'llama-guard-3-8b': 0.05 * MILLI_USD,
  'llama3-70b-8192': 0.59 * MILLI_USD,
  'llama3-8b-8192': 0.05 * MILLI_USD,
  'llama3-groq-70b-8192-tool-use-preview': 0.89 * MILLI_USD,
  'llama3-groq-8b-8192-tool-use-preview': 0.19 * MILLI_USD,
  'mixtral-8x7b-32768': 0.24 * MILLI_USD,
  'llama-3.3-70b-versatile': 0.59 * MILLI_USD,
}
