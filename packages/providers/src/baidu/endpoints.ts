/**
 * Baidu Qianfan v1 (Wenxin workshop) endpoint names of the models, as one-api maps them; a model
 * not listed is its own name lower-cased (custom deployments are named so).
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/clntwmv7t
 */
const CHAT: Record<string, string> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-4.0-Turbo-8K': 'ernie-4.0-turbo-8k',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot': 'completions',
  'ERNIE-3.5-128K': 'ernie-3.5-128k',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'ERNIE-Character-8K': 'ernie-char-8k',
  'ERNIE-Functions-8K': 'ernie-func-8k',
}

const EMBEDDINGS: Record<string, string> = {
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
}

export const chatEndpoint = (model: string): string => CHAT[model] ?? model.toLowerCase()
export const embeddingsEndpoint = (model: string): string => EMBEDDINGS[model] ?? model.toLowerCase()
