/**
 * The channel type catalogue: one-api's numeric type ids (relay/channeltype/define.go), which are
 * stored in `channels.type` of existing databases and so can never be renumbered. Labels, colours,
 * base URLs and key hints are those of one-api's console.
 */
export interface ChannelTypeInfo {
  id: number
  /** one-api's Go constant name: a stable identifier for code. */
  code: string
  /** English label of the console. */
  name: string
  /** Chinese label of the console (zh locale). */
  chineseName: string
  /** Colour name of one-api's console (Semantic UI palette). */
  color: string
  /** Base URL used when the channel's own base_url is empty ('' = must be configured). */
  defaultBaseUrl: string
  /** Placeholder of the key field when the key is made of several parts. */
  keyHint?: string
  /** A short note shown under the type selector. */
  tip?: string
  /** The provider retired this API: channels of the type load but every request is refused. */
  retired?: boolean
}

function type(
  id: number,
  code: string,
  name: string,
  chineseName: string,
  color: string,
  defaultBaseUrl: string,
  extra: Pick<ChannelTypeInfo, 'keyHint' | 'tip' | 'retired'> = {},
): ChannelTypeInfo {
  return { id, code, name, chineseName, color, defaultBaseUrl, ...extra }
}

/** Indexed by id: CHANNEL_TYPES[id].id === id for every id 0..51. */
export const CHANNEL_TYPES: readonly ChannelTypeInfo[] = [
  type(0, 'Unknown', 'Unknown', '未知', 'grey', ''),
  type(1, 'OpenAI', 'OpenAI', 'OpenAI', 'green', 'https://api.openai.com'),
  type(2, 'API2D', 'API2D (proxy)', '代理：API2D', 'blue', 'https://oa.api2d.net'),
  type(3, 'Azure', 'Azure OpenAI', 'Azure OpenAI', 'olive', ''),
  type(4, 'CloseAI', 'CloseAI (proxy)', '代理：CloseAI', 'teal', 'https://api.closeai-proxy.xyz'),
  type(5, 'OpenAISB', 'OpenAI-SB (proxy)', '代理：OpenAI-SB', 'brown', 'https://api.openai-sb.com'),
  type(6, 'OpenAIMax', 'OpenAI Max (proxy)', '代理：OpenAI Max', 'violet', 'https://api.openaimax.com'),
  type(7, 'OhMyGPT', 'OhMyGPT (proxy)', '代理：OhMyGPT', 'purple', 'https://api.ohmygpt.com'),
  type(8, 'Custom', 'Custom', '自定义渠道', 'pink', '', {
    tip: 'Not recommended: use OpenAI Compatible instead',
  }),
  type(9, 'Ails', 'AI.LS (proxy)', '代理：AI.LS', 'yellow', 'https://api.caipacity.com'),
  type(10, 'AIProxy', 'AI Proxy (proxy)', '代理：AI Proxy', 'purple', 'https://api.aiproxy.io'),
  type(11, 'PaLM', 'Google PaLM2', 'Google PaLM2', 'orange', 'https://generativelanguage.googleapis.com', {
    tip: 'Retired by Google: use Gemini instead',
    retired: true,
  }),
  type(12, 'API2GPT', 'API2GPT (proxy)', '代理：API2GPT', 'blue', 'https://api.api2gpt.com'),
  type(13, 'AIGC2D', 'AIGC2D (proxy)', '代理：AIGC2D', 'purple', 'https://api.aigc2d.com'),
  type(14, 'Anthropic', 'Anthropic Claude', 'Anthropic Claude', 'black', 'https://api.anthropic.com'),
  type(15, 'Baidu', 'Baidu Wenxin Qianfan', '百度文心千帆', 'blue', 'https://aip.baidubce.com', {
    keyHint: 'APIKey|SecretKey',
  }),
  type(16, 'Zhipu', 'Zhipu ChatGLM', '智谱 ChatGLM', 'violet', 'https://open.bigmodel.cn'),
  type(17, 'Ali', 'Alibaba Tongyi Qianwen', '阿里通义千问', 'orange', 'https://dashscope.aliyuncs.com'),
  type(18, 'Xunfei', 'iFlytek Spark', '讯飞星火认知', 'blue', '', { keyHint: 'APPID|APISecret|APIKey' }),
  type(19, 'AI360', '360 Zhinao', '360 智脑', 'blue', 'https://ai.360.cn'),
  type(20, 'OpenRouter', 'OpenRouter', 'OpenRouter', 'black', 'https://openrouter.ai/api'),
  type(
    21,
    'AIProxyLibrary',
    'AI Proxy knowledge base',
    '知识库：AI Proxy',
    'purple',
    'https://api.aiproxy.io',
  ),
  type(
    22,
    'FastGPT',
    'FastGPT knowledge base',
    '知识库：FastGPT',
    'blue',
    'https://fastgpt.run/api/openapi',
    {
      keyHint: 'APIKey-AppId',
    },
  ),
  type(23, 'Tencent', 'Tencent Hunyuan', '腾讯混元', 'teal', 'https://hunyuan.tencentcloudapi.com', {
    keyHint: 'AppId|SecretId|SecretKey',
  }),
  type(24, 'Gemini', 'Google Gemini', 'Google Gemini', 'orange', 'https://generativelanguage.googleapis.com'),
  type(25, 'Moonshot', 'Moonshot AI', 'Moonshot AI', 'black', 'https://api.moonshot.cn'),
  type(26, 'Baichuan', 'Baichuan', '百川大模型', 'orange', 'https://api.baichuan-ai.com'),
  type(27, 'Minimax', 'MiniMax', 'MiniMax', 'red', 'https://api.minimax.chat'),
  type(28, 'Mistral', 'Mistral AI', 'Mistral AI', 'orange', 'https://api.mistral.ai'),
  type(29, 'Groq', 'Groq', 'Groq', 'orange', 'https://api.groq.com/openai'),
  type(30, 'Ollama', 'Ollama', 'Ollama', 'black', 'http://localhost:11434'),
  type(31, 'LingYiWanWu', '01.AI', '零一万物', 'green', 'https://api.lingyiwanwu.com'),
  type(32, 'StepFun', 'StepFun', '阶跃星辰', 'blue', 'https://api.stepfun.com'),
  type(33, 'AwsClaude', 'AWS Bedrock', 'AWS Bedrock', 'black', ''),
  type(34, 'Coze', 'Coze', 'Coze', 'blue', 'https://api.coze.com'),
  type(35, 'Cohere', 'Cohere', 'Cohere', 'blue', 'https://api.cohere.ai'),
  type(36, 'DeepSeek', 'DeepSeek', 'DeepSeek', 'black', 'https://api.deepseek.com'),
  type(
    37,
    'Cloudflare',
    'Cloudflare Workers AI',
    'Cloudflare Workers AI',
    'orange',
    'https://api.cloudflare.com',
  ),
  type(38, 'DeepL', 'DeepL', 'DeepL', 'black', 'https://api-free.deepl.com'),
  type(39, 'TogetherAI', 'together.ai', 'together.ai', 'blue', 'https://api.together.xyz'),
  type(40, 'Doubao', 'Volcengine Ark (Doubao)', '字节火山引擎', 'blue', 'https://ark.cn-beijing.volces.com'),
  type(41, 'Novita', 'Novita', 'Novita', 'purple', 'https://api.novita.ai/v3/openai'),
  type(42, 'VertextAI', 'Google Vertex AI', 'Google Vertex AI', 'blue', ''),
  type(43, 'Proxy', 'Proxy', '代理', 'blue', '', { tip: 'Raw pass-through: no model list is needed' }),
  type(44, 'SiliconFlow', 'SiliconFlow', '硅基流动', 'blue', 'https://api.siliconflow.cn'),
  type(45, 'XAI', 'xAI', 'xAI', 'blue', 'https://api.x.ai'),
  type(46, 'Replicate', 'Replicate', 'Replicate', 'blue', 'https://api.replicate.com/v1/models/'),
  type(47, 'BaiduV2', 'Baidu Qianfan V2', '百度文心千帆 V2', 'blue', 'https://qianfan.baidubce.com'),
  type(48, 'XunfeiV2', 'iFlytek Spark V2', '讯飞星火认知 V2', 'blue', 'https://spark-api-open.xf-yun.com'),
  type(49, 'AliBailian', 'Alibaba Cloud Bailian', '阿里云百炼', 'orange', 'https://dashscope.aliyuncs.com'),
  type(50, 'OpenAICompatible', 'OpenAI Compatible', 'OpenAI 兼容', 'olive', '', {
    tip: 'Any OpenAI-compatible API: set the base URL including /v1',
  }),
  type(
    51,
    'GeminiOpenAICompatible',
    'Gemini (OpenAI compatible)',
    'Gemini (OpenAI 兼容)',
    'orange',
    'https://generativelanguage.googleapis.com/v1beta/openai/',
  ),
]

/** Ids the code refers to by name. */
export const ChannelType = {
  unknown: 0,
  openAI: 1,
  azure: 3,
  closeAi: 4,
  openAiSb: 5,
  custom: 8,
  aiProxy: 10,
  api2gpt: 12,
  aigc2d: 13,
  anthropic: 14,
  baidu: 15,
  xunfei: 18,
  openRouter: 20,
  fastGpt: 22,
  tencent: 23,
  gemini: 24,
  ollama: 30,
  aws: 33,
  coze: 34,
  deepSeek: 36,
  cloudflare: 37,
  doubao: 40,
  vertexAi: 42,
  proxy: 43,
  siliconFlow: 44,
  openAICompatible: 50,
} as const

/** Order of the console's type dropdown (one-api's CHANNEL_OPTIONS); type 0 is not offered. */
export const CHANNEL_TYPE_ORDER: readonly number[] = [
  1, 50, 14, 33, 3, 11, 24, 51, 28, 41, 40, 15, 47, 17, 49, 18, 48, 16, 19, 25, 23, 26, 27, 29, 30, 31, 32,
  34, 35, 36, 37, 38, 39, 42, 43, 44, 45, 46, 8, 22, 21, 20, 2, 5, 7, 10, 4, 6, 9, 12, 13,
]

/** Azure's API version when the channel sets none (one-api's default). */
export const DEFAULT_AZURE_API_VERSION = '2024-03-01-preview'

export function channelTypeInfo(id: number): ChannelTypeInfo | undefined {
  return Number.isInteger(id) ? CHANNEL_TYPES[id] : undefined
}

/** A type a channel may be created with: every catalogue id except 0 (unknown). */
export function isSelectableChannelType(id: number): boolean {
  return id !== ChannelType.unknown && channelTypeInfo(id) !== undefined
}
