import { RMB } from './units.ts'

/**
 * Zhipu GLM (https://open.bigmodel.cn/pricing): CNY per 1K tokens; cogview models per image.
 */
export const ZHIPU_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'glm-zero-preview': 0.01 * RMB,
  'glm-4-plus': 0.05 * RMB,
  'glm-4-0520': 0.1 * RMB,
  'glm-4-airx': 0.01 * RMB,
  'glm-4-air': 0.0005 * RMB,
  'glm-4-long': 0.001 * RMB,
  'glm-4-flashx': 0.0001 * RMB,
  'glm-4-flash': 0,
  'glm-4': 0.1 * RMB,
  'glm-3-turbo': 0.001 * RMB,
  'glm-4v-plus': 0.004 * RMB,
  'glm-4v': 0.05 * RMB,
  'glm-4v-flash': 0,
  'cogview-3-plus': 0.06 * RMB,
  'cogview-3': 0.1 * RMB,
  'cogview-3-flash': 0,
  cogviewx: 0.5 * RMB,
  'cogviewx-flash': 0,
  'charglm-4': 0.001 * RMB,
  emohaa: 0.015 * RMB,
  'codegeex-4': 0.0001 * RMB,
  'embedding-2': 0.0005 * RMB,
  'embedding-3': 0.0005 * RMB,
}
