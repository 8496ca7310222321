import { RMB } from './units.ts'

/**
 * Baidu Qianfan / ERNIE (https://cloud.baidu.com/doc/WENXINWORKSHOP/s/hlrk4akp7): CNY per 1K tokens.
 */
export const BAIDU_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'ERNIE-4.0-8K': 0.12 * RMB,
  'ERNIE-3.5-8K': 0.012 * RMB,
  'ERNIE-3.5-8K-0205': 0.024 * RMB,
  'ERNIE-3.5-8K-1222': 0.012 * RMB,
  'ERNIE-Bot-8K': 0.024 * RMB,
  'ERNIE-3.5-4K-0205': 0.012 * RMB,
  'ERNIE-Speed-8K': 0.004 * RMB,
  'ERNIE-Speed-128K': 0.004 * RMB,
  'ERNIE-Lite-8K-0922': 0.008 * RMB,
  'ERNIE-Lite-8K-0308': 0.003 * RMB,
  'ERNIE-Tiny-8K': 0.001 * RMB,
  'BLOOMZ-7B': 0.004 * RMB,
  'Embedding-V1': 0.002 * RMB,
  'bge-large-zh': 0.002 * RMB,
  'bge-large-en': 0.002 * RMB,
  'tao-8k': 0.002 * RMB,
}
