import { CHANNEL_TYPES } from './channel-types.ts'

/**
 * Default model lists per channel type: what the console's "fill related models" button offers,
 * `GET /api/models` returns and `GET /api/channel/models` lists. The names are the public model
 * names each provider (or one-api's adaptor for it) accepts. Lists are whitespace-separated strings
 * so the file stays readable; `owned_by` is the provider name, as one-api's adaptors report it.
 */
function words(text: string): readonly string[] {
  return text.split(/\s+/).filter((word) => word !== '')
}

interface ProviderModels {
  ownedBy: string
  models: readonly string[]
}

const OPENAI: ProviderModels = {
  ownedBy: 'openai',
  models: words(`
    gpt-3.5-turbo gpt-3.5-turbo-0301 gpt-3.5-turbo-0613 gpt-3.5-turbo-1106 gpt-3.5-turbo-0125
    gpt-3.5-turbo-16k gpt-3.5-turbo-16k-0613 gpt-3.5-turbo-instruct
    gpt-4 gpt-4-0314 gpt-4-0613 gpt-4-1106-preview gpt-4-0125-preview gpt-4-32k gpt-4-32k-0314 gpt-4-32k-0613
    gpt-4-turbo-preview gpt-4-turbo gpt-4-turbo-2024-04-09 gpt-4-vision-preview
    gpt-4o gpt-4o-2024-05-13 gpt-4o-2024-08-06 gpt-4o-2024-11-20 chatgpt-4o-latest gpt-4o-mini gpt-4o-mini-2024-07-18
    gpt-4.1 gpt-4.1-mini gpt-4.1-nano gpt-4.5-preview
    o1 o1-2024-12-17 o1-preview o1-preview-2024-09-12 o1-mini o1-mini-2024-09-12 o3-mini o3-mini-2025-01-31 o3 o4-mini
    text-embedding-ada-002 text-embedding-3-small text-embedding-3-large
    text-curie-001 text-babbage-001 text-ada-001 text-davinci-002 text-davinci-003 davinci-002 babbage-002
    text-moderation-latest text-moderation-stable omni-moderation-latest text-davinci-edit-001
    dall-e-2 dall-e-3 whisper-1 tts-1 tts-1-1106 tts-1-hd tts-1-hd-1106
  `),
}

const ANTHROPIC_MODELS = words(`
  claude-instant-1.2 claude-2.0 claude-2.1 claude-3-haiku-20240307 claude-3-sonnet-20240229 claude-3-opus-20240229
  claude-3-5-haiku-20241022 claude-3-5-haiku-latest claude-3-5-sonnet-20240620 claude-3-5-sonnet-20241022
  claude-3-5-sonnet-latest claude-3-7-sonnet-20250219 claude-3-7-sonnet-latest
  claude-sonnet-4-20250514 claude-opus-4-20250514
`)

const GEMINI_MODELS = words(`
  gemini-pro gemini-1.0-pro gemini-1.5-flash gemini-1.5-flash-8b gemini-1.5-pro gemini-2.0-flash
  gemini-2.0-flash-lite gemini-2.0-flash-exp gemini-2.0-flash-thinking-exp-01-21 gemini-2.0-pro-exp-02-05
  gemini-2.5-flash gemini-2.5-pro text-embedding-004 aqa gemma-2-2b-it gemma-2-9b-it gemma-2-27b-it
`)

const CLOUDFLARE_MODELS = words(`
  @cf/meta/llama-3.1-8b-instruct @cf/meta/llama-3-8b-instruct @cf/meta/llama-2-7b-chat-fp16
  @cf/mistral/mistral-7b-instruct-v0.1 @cf/google/gemma-7b-it-lora @cf/qwen/qwen1.5-14b-chat-awq
  @cf/deepseek-ai/deepseek-r1-distill-qwen-32b @hf/thebloke/deepseek-coder-6.7b-instruct-awq
  @cf/baai/bge-base-en-v1.5
`)

/** Model lists by channel type id; types missing here use OpenAI's list (one-api's OpenAI adaptor). */
const PROVIDERS: Record<number, ProviderModels> = {
  11: { ownedBy: 'google palm', models: words('PaLM-2') },
  14: { ownedBy: 'anthropic', models: ANTHROPIC_MODELS },
  15: {
    ownedBy: 'baidu',
    models: words(`
      ERNIE-4.0-8K ERNIE-3.5-8K ERNIE-3.5-8K-0205 ERNIE-3.5-8K-1222 ERNIE-Bot-8K ERNIE-3.5-4K-0205
      ERNIE-Speed-8K ERNIE-Speed-128K ERNIE-Lite-8K-0922 ERNIE-Lite-8K-0308 ERNIE-Tiny-8K BLOOMZ-7B
      Embedding-V1 bge-large-zh bge-large-en tao-8k
    `),
  },
  16: {
    ownedBy: 'zhipu',
    models: words(`
      chatglm_turbo chatglm_pro chatglm_std chatglm_lite glm-4 glm-4v glm-3-turbo glm-4-plus glm-4-air
      glm-4-flash glm-4-long embedding-2 cogview-3
    `),
  },
  17: {
    ownedBy: 'ali',
    models: words(`
      qwen-turbo qwen-plus qwen-max qwen-max-longcontext qwen-long qwen-vl-max qwen-vl-plus qwq-32b-preview
      qwen2.5-72b-instruct deepseek-r1 deepseek-v3 text-embedding-v1 ali-stable-diffusion-xl
      ali-stable-diffusion-v1.5 wanx-v1
    `),
  },
  18: {
    ownedBy: 'xunfei',
    models: words('Spark-Lite Spark-Pro Spark-Pro-128K Spark-Max Spark-Max-32K Spark-4.0-Ultra'),
  },
  19: {
    ownedBy: '360',
    models: words('360GPT_S2_V9 embedding-bert-512-v1 embedding_s1_v1 semantic_similarity_s1_v1'),
  },
  20: {
    ownedBy: 'openrouter',
    models: words(`
      openai/gpt-4o openai/gpt-4o-mini openai/o3-mini anthropic/claude-3.5-sonnet anthropic/claude-3.7-sonnet
      google/gemini-2.0-flash-001 google/gemini-pro-1.5 meta-llama/llama-3.1-70b-instruct
      meta-llama/llama-3.3-70b-instruct deepseek/deepseek-chat deepseek/deepseek-r1 mistralai/mistral-large
      qwen/qwen-2.5-72b-instruct x-ai/grok-2-1212
    `),
  },
  21: { ownedBy: 'aiproxy', models: words('gpt-3.5-turbo gpt-4') },
  23: {
    ownedBy: 'tencent',
    models: words(`
      hunyuan-lite hunyuan-standard hunyuan-standard-256K hunyuan-pro hunyuan-turbo hunyuan-vision
      hunyuan-embedding
    `),
  },
  24: { ownedBy: 'google gemini', models: GEMINI_MODELS },
  25: { ownedBy: 'moonshot', models: words('moonshot-v1-8k moonshot-v1-32k moonshot-v1-128k') },
  26: { ownedBy: 'baichuan', models: words('Baichuan2-Turbo Baichuan2-Turbo-192k Baichuan-Text-Embedding') },
  27: {
    ownedBy: 'minimax',
    models: words('abab5.5s-chat abab5.5-chat abab6-chat abab6.5-chat abab6.5s-chat'),
  },
  28: {
    ownedBy: 'mistralai',
    models: words(`
      open-mistral-7b open-mixtral-8x7b open-mixtral-8x22b mistral-small-latest mistral-medium-latest
      mistral-large-latest codestral-latest mistral-embed
    `),
  },
  29: {
    ownedBy: 'groq',
    models: words(`
      gemma-7b-it gemma2-9b-it llama-3.1-8b-instant llama-3.1-70b-versatile llama-3.3-70b-versatile
      llama3-8b-8192 llama3-70b-8192 mixtral-8x7b-32768 deepseek-r1-distill-llama-70b whisper-large-v3
    `),
  },
  30: {
    ownedBy: 'ollama',
    models: words(
      'codellama:7b-instruct llama2:7b llama2:latest llama3:latest phi3:latest qwen:0.5b-chat qwen:7b',
    ),
  },
  31: {
    ownedBy: 'lingyiwanwu',
    models: words('yi-34b-chat-0205 yi-34b-chat-200k yi-vl-plus yi-large yi-medium yi-spark yi-lightning'),
  },
  32: {
    ownedBy: 'stepfun',
    models: words(
      'step-1-8k step-1-32k step-1-128k step-1-256k step-1-flash step-2-16k step-1v-8k step-1v-32k',
    ),
  },
  33: { ownedBy: 'aws', models: [...ANTHROPIC_MODELS, 'llama3-8b-8192', 'llama3-70b-8192'] },
  // Coze's "model" is the bot id the admin types in (type 34).
  34: { ownedBy: 'coze', models: [] },
  35: {
    ownedBy: 'cohere',
    models: words(`
      command command-nightly command-light command-light-nightly command-r command-r-plus
      command-r-08-2024 command-r-plus-08-2024 command-r7b-12-2024
    `),
  },
  36: { ownedBy: 'deepseek', models: words('deepseek-chat deepseek-reasoner') },
  37: { ownedBy: 'cloudflare', models: CLOUDFLARE_MODELS },
  38: { ownedBy: 'deepl', models: words('deepl-zh deepl-en deepl-ja') },
  39: {
    ownedBy: 'together.ai',
    models: words(`
      meta-llama/Llama-3-70b-chat-hf meta-llama/Llama-3.3-70B-Instruct-Turbo deepseek-ai/DeepSeek-V3
      deepseek-ai/DeepSeek-R1 mistralai/Mixtral-8x22B-Instruct-v0.1 Qwen/Qwen2.5-72B-Instruct-Turbo
    `),
  },
  // Volcengine Ark: the model name is the inference endpoint id (type 40).
  40: {
    ownedBy: 'doubao',
    models: words(`
      Doubao-pro-128k Doubao-pro-32k Doubao-pro-4k Doubao-lite-128k Doubao-lite-32k Doubao-lite-4k
      Doubao-embedding
    `),
  },
  41: {
    ownedBy: 'novita',
    models: words(`
      meta-llama/llama-3-8b-instruct meta-llama/llama-3-70b-instruct meta-llama/llama-3.1-8b-instruct
      meta-llama/llama-3.1-70b-instruct mistralai/mistral-nemo deepseek/deepseek-r1 deepseek/deepseek_v3
      qwen/qwen-2.5-72b-instruct
    `),
  },
  42: {
    ownedBy: 'vertexai',
    models: words(`
      claude-3-haiku@20240307 claude-3-sonnet@20240229 claude-3-opus@20240229 claude-3-5-sonnet@20240620
      claude-3-5-sonnet-v2@20241022 claude-3-5-haiku@20241022 gemini-1.5-pro-001 gemini-1.5-flash-001
      gemini-1.5-pro-002 gemini-1.5-flash-002 gemini-2.0-flash-001 gemini-2.0-flash-exp gemini-pro gemini-pro-vision
      text-embedding-004 text-embedding-005 text-multilingual-embedding-002 gemini-embedding-001
    `),
  },
  43: { ownedBy: 'proxy', models: [] },
  44: {
    ownedBy: 'siliconflow',
    models: words(`
      deepseek-ai/DeepSeek-V3 deepseek-ai/DeepSeek-R1 Qwen/Qwen2.5-72B-Instruct Qwen/Qwen2.5-7B-Instruct
      Qwen/QwQ-32B THUDM/glm-4-9b-chat BAAI/bge-m3 BAAI/bge-reranker-v2-m3 black-forest-labs/FLUX.1-schnell
      FunAudioLLM/SenseVoiceSmall
    `),
  },
  45: {
    ownedBy: 'xai',
    models: words('grok-beta grok-2 grok-2-latest grok-2-vision-1212 grok-3 grok-3-mini'),
  },
  46: {
    ownedBy: 'replicate',
    models: words(`
      black-forest-labs/flux-schnell black-forest-labs/flux-dev black-forest-labs/flux-pro
      black-forest-labs/flux-1.1-pro stability-ai/stable-diffusion-3 meta/meta-llama-3-8b-instruct
      meta/meta-llama-3-70b-instruct ibm-granite/granite-3.0-8b-instruct
    `),
  },
  47: {
    ownedBy: 'baiduv2',
    models: words(`
      ernie-4.0-8k-latest ernie-4.0-turbo-8k ernie-3.5-8k ernie-speed-128k ernie-lite-8k ernie-tiny-8k
      deepseek-v3 deepseek-r1
    `),
  },
  48: { ownedBy: 'xunfeiv2', models: words('lite generalv3 pro-128k generalv3.5 max-32k 4.0Ultra') },
  49: {
    ownedBy: 'alibailian',
    models: words('qwen-turbo qwen-plus qwen-max qwen-long qwq-32b deepseek-r1 deepseek-v3'),
  },
  51: { ownedBy: 'geminiv2', models: GEMINI_MODELS },
}

function providerOf(type: number): ProviderModels {
  return PROVIDERS[type] ?? OPENAI
}

/** Default model names of a channel type (OpenAI's list for OpenAI-format types without their own). */
export function defaultModelsOf(type: number): readonly string[] {
  return providerOf(type).models
}

/** `GET /api/models`: channel type id -> default model names, for every type 1..51. */
export function defaultModelsByChannelType(): Record<number, string[]> {
  const byType: Record<number, string[]> = {}
  for (const info of CHANNEL_TYPES) {
    if (info.id !== 0) byType[info.id] = [...defaultModelsOf(info.id)]
  }
  return byType
}

export interface CatalogueModel {
  id: string
  object: 'model'
  created: number
  owned_by: string
}

/** one-api's fixed `created` of built-in models (2021-07-25). */
export const CATALOGUE_MODEL_CREATED = 1626777600

/** `GET /api/channel/models`: every built-in model once, owned by the first provider listing it. */
export function builtInModelCatalogue(): CatalogueModel[] {
  const seen = new Set<string>()
  const catalogue: CatalogueModel[] = []
  for (const provider of [OPENAI, ...Object.values(PROVIDERS)]) {
    for (const id of provider.models) {
      if (seen.has(id)) continue
      seen.add(id)
      catalogue.push({ id, object: 'model', created: CATALOGUE_MODEL_CREATED, owned_by: provider.ownedBy })
    }
  }
  return catalogue
}
