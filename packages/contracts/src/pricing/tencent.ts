import { RMB } from './units.ts'

/**
 * Tencent Hunyuan (https://cloud.tencent.com/document/product/1729/97731): CNY per 1K tokens.
 */
export const TENCENT_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'hunyuan-turbo': 0.015 * RMB,
  'hunyuan-large': 0.004 * RMB,
  'hunyuan-large-longcontext': 0.006 * RMB,
  'hunyuan-standard': 0.0008 * RMB,
  'hunyuan-standard-256K': 0.0005 * RMB,
  'hunyuan-translation-lite': 0.005 * RMB,
  'hunyuan-role': 0.004 * RMB,
  'hunyuan-functioncall': 0.004 * RMB,
  'hunyuan-code': 0.004 * RMB,
  'hunyuan-turbo-vision': 0.08 * RMB,
  'hunyuan-vision': 0.018 * RMB,
  'hunyuan-embedding': 0.0007 * RMB,
}
