/**
 * Default base URLs of the channel types served by the OpenAI-compatible adaptor
 * (reference §1.1, one-api relay/channeltype/url.go).
 *
 * TEMPORARY: packages/contracts/src/channel-types.ts is the catalogue of record; once it exists
 * this map should be replaced by its default base URLs.
 */
export const OPENAI_FORMAT_DEFAULT_BASE_URLS: Readonly<Record<number, string>> = {
  1: 'https://api.openai.com',
  2: 'https://oa.api2d.net',
  3: '', // Azure: the channel must set its resource endpoint
  4: 'https://api.closeai-proxy.xyz',
  5: 'https://api.openai-sb.com',
  6: 'https://api.openaimax.com',
  7: 'https://api.ohmygpt.com',
  8: '', // Custom: the channel must set its base URL
  9: 'https://api.caipacity.com',
  10: 'https://api.aiproxy.io',
  12: 'https://api.api2gpt.com',
  13: 'https://api.aigc2d.com',
  19: 'https://ai.360.cn',
  20: 'https://openrouter.ai/api',
  22: 'https://fastgpt.run/api/openapi',
  25: 'https://api.moonshot.cn',
  26: 'https://api.baichuan-ai.com',
  27: 'https://api.minimax.chat',
  28: 'https://api.mistral.ai',
  29: 'https://api.groq.com/openai',
  31: 'https://api.lingyiwanwu.com',
  32: 'https://api.stepfun.com',
  36: 'https://api.deepseek.com',
  39: 'https://api.together.xyz',
  40: 'https://ark.cn-beijing.volces.com',
  41: 'https://api.novita.ai/v3/openai',
  44: 'https://api.siliconflow.cn',
  45: 'https://api.x.ai',
  47: 'https://qianfan.baidubce.com',
  48: 'https://spark-api-open.xf-yun.com',
  49: 'https://dashscope.aliyuncs.com',
  50: '', // OpenAI-compatible: the channel must set an SDK-style base URL (with /v1)
  51: 'https://generativelanguage.googleapis.com/v1beta/openai/',
}

/** Every channel type id the OpenAI-compatible adaptor serves. */
export const OPENAI_FORMAT_CHANNEL_TYPES: readonly number[] = Object.keys(OPENAI_FORMAT_DEFAULT_BASE_URLS).map(
  Number,
)
