import { MILLI_RMB, MILLI_USD, RMB } from './units.ts'

/**
 * Smaller providers: iFlytek Spark, 360, Baichuan, MiniMax, 01.AI, StepFun, DeepL and the per-channel-type
 * AWS Bedrock keys ("model(33)", 33 = AWS channel type).
 * StepFun prices are CNY per 1M tokens; one-api wrote them as CNY per 1K divided by 1000 again
 * (1000x too cheap); fixed here.
 */
export const OTHER_VENDOR_MODEL_RATIOS: Readonly<Record<string, number>> = {
  SparkDesk: 1.2858,
  'SparkDesk-v1.1': 1.2858,
  'SparkDesk-v2.1': 1.2858,
  'SparkDesk-v3.1': 1.2858,
  'SparkDesk-v3.1-128K': 1.2858,
  'SparkDesk-v3.5': 1.2858,
  'SparkDesk-v3.5-32K': 1.2858,
  'SparkDesk-v4.0': 1.2858,
  '360GPT_S2_V9': 0.8572,
  'embedding-bert-512-v1': 0.0715,
  embedding_s1_v1: 0.0715,
  semantic_similarity_s1_v1: 0.0715,
  'Baichuan2-Turbo': 0.008 * RMB,
  'Baichuan2-Turbo-192k': 0.016 * RMB,
  'Baichuan2-53B': 0.02 * RMB,
  'abab6.5-chat': 0.03 * RMB,
  'abab6.5s-chat': 0.01 * RMB,
  'abab6-chat': 0.1 * RMB,
  'abab5.5-chat': 0.015 * RMB,
  'abab5.5s-chat': 0.005 * RMB,
  'yi-34b-chat-0205': 2.5 * MILLI_RMB,
  'yi-34b-chat-200k': 12 * MILLI_RMB,
  'yi-vl-plus': 6 * MILLI_RMB,
  'step-1-8k': 5 * MILLI_RMB,
  'step-1-32k': 15 * MILLI_RMB,
  'step-1-128k': 40 * MILLI_RMB,
  'step-1-256k': 95 * MILLI_RMB,
  'step-1-flash': 1 * MILLI_RMB,
  'step-2-16k': 38 * MILLI_RMB,
  'step-1v-8k': 5 * MILLI_RMB,
  'step-1v-32k': 15 * MILLI_RMB,
  'llama3-8b-8192(33)': 0.0003 / 0.002,
  'llama3-70b-8192(33)': 0.00265 / 0.002,
  'deepl-zh': 25 * MILLI_USD,
  'deepl-en': 25 * MILLI_USD,
  'deepl-ja': 25 * MILLI_USD,
}
