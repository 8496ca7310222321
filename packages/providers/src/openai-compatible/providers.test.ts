/**
 * The OpenAI-format channel types one by one: for each, the URL a chat request is sent to (from the
 * type's default base URL and one-api's path rules), the key header, the provider's own extra
 * headers, and its documented chat answer (`__fixtures__/providers/`) read as an OpenAI client gets
 * it (checked against OpenAI's schema) with the usage billed. The shared conformance suite runs
 * once for the whole family in conformance.test.ts: these types differ in where requests go and
 * in the extra fields of their answers, not in the format.
 */
import { describe, expect, it } from 'vitest'
import { build, parsed } from '../testing/conformance-replay.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { openAiCompatibleAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/providers/', import.meta.url))

interface ProviderCase {
  type: number
  name: string
  model: string
  /** Where a chat request goes with the type's default base URL. */
  url: string
  /** The fixture's text and usage (prompt, completion, total). */
  text: string
  usage: [number, number, number]
  headers?: Record<string, string>
  /** Where embeddings go, for the types whose path differs from OpenAI's. */
  embeddings?: string | null
}

/**
 * Answers are passed on byte for byte, so a provider's own deviations from OpenAI's schema reach
 * the client as they are (OpenAI's SDKs read them fine): most of these documented answers lack
 * `logprobs` or `refusal`, Mistral sends `tool_calls: null`, and Xunfei v2's has no `id`,
 * `object`, `created`, `model` or `finish_reason`. Strict schema checks are the shared suite's,
 * on OpenAI's own bodies.
 */
const CASES: ProviderCase[] = [
  {
    type: 36,
    name: 'deepseek',
    model: 'deepseek-chat',
    url: 'https://api.deepseek.com/v1/chat/completions',
    text: 'Hello! How can I help you today?',
    usage: [16, 10, 26],
  },
  {
    type: 25,
    name: 'moonshot',
    model: 'moonshot-v1-8k',
    url: 'https://api.moonshot.cn/v1/chat/completions',
    text: '你好，李雷！1+1等于2。如果你有其他问题，请随时提问！',
    usage: [19, 21, 40],
  },
  {
    type: 29,
    name: 'groq',
    model: 'llama3-8b-8192',
    url: 'https://api.groq.com/openai/v1/chat/completions',
    text: 'Low latency LLMs are important because they enable real-time interactions.',
    usage: [18, 14, 32],
  },
  {
    type: 28,
    name: 'mistral',
    model: 'mistral-small-latest',
    url: 'https://api.mistral.ai/v1/chat/completions',
    text: 'The best French cheese depends on individual preferences.',
    usage: [16, 34, 50],
  },
  {
    type: 27,
    name: 'minimax',
    model: 'MiniMax-Text-01',
    url: 'https://api.minimax.chat/v1/text/chatcompletion_v2',
    text: '你好！有什么我可以帮助你的吗？',
    usage: [59, 11, 70],
    embeddings: null,
  },
  {
    type: 40,
    name: 'doubao',
    model: 'ep-20240603163538-xyz12',
    url: 'https://ark.cn-beijing.volces.com/api/v3/chat/completions',
    text: '你好！我是豆包，有什么可以帮你的吗？',
    usage: [19, 12, 31],
    embeddings: 'https://ark.cn-beijing.volces.com/api/v3/embeddings',
  },
  {
    type: 41,
    name: 'novita',
    model: 'meta-llama/llama-3.1-8b-instruct',
    url: 'https://api.novita.ai/v3/openai/chat/completions',
    text: 'Hello! It is nice to meet you.',
    usage: [12, 9, 21],
    embeddings: null,
  },
  {
    type: 47,
    name: 'baidu-v2',
    model: 'ernie-4.0-8k-latest',
    url: 'https://qianfan.baidubce.com/v2/chat/completions',
    text: '您好，我是文心一言，英文名是ERNIE Bot。',
    usage: [2, 18, 20],
    embeddings: null,
  },
  {
    type: 48,
    name: 'xunfei-v2',
    model: 'generalv3.5',
    url: 'https://spark-api-open.xf-yun.com/v1/chat/completions',
    text: '你好！有什么我可以帮忙的吗？',
    usage: [1, 9, 10],
  },
  {
    type: 49,
    name: 'bailian',
    model: 'qwen-plus',
    url: 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
    text: '我是阿里云开发的一款超大规模语言模型，我叫通义千问。',
    usage: [22, 17, 39],
    embeddings: 'https://dashscope.aliyuncs.com/compatible-mode/v1/embeddings',
  },
  {
    type: 20,
    name: 'openrouter',
    model: 'openai/gpt-4o-mini',
    url: 'https://openrouter.ai/api/v1/chat/completions',
    text: 'Hello! How can I assist you today?',
    usage: [9, 9, 18],
    // one-api's attribution, which OpenRouter shows in its rankings.
    headers: { 'HTTP-Referer': 'https://github.com/songquanpeng/one-api', 'X-Title': 'One API' },
  },
  {
    type: 26,
    name: 'baichuan',
    model: 'Baichuan2-Turbo',
    url: 'https://api.baichuan-ai.com/v1/chat/completions',
    text: '世界第一高峰是珠穆朗玛峰。',
    usage: [7, 13, 20],
  },
  {
    type: 44,
    name: 'siliconflow',
    model: 'Qwen/Qwen2.5-7B-Instruct',
    url: 'https://api.siliconflow.cn/v1/chat/completions',
    text: 'Hello! How can I help you today?',
    usage: [30, 10, 40],
  },
  // xAI counts reasoning tokens in the total only: the completion billed includes them.
  {
    type: 45,
    name: 'xai',
    model: 'grok-4-0709',
    url: 'https://api.x.ai/v1/chat/completions',
    text: '101 multiplied by 3 is 303.',
    usage: [32, 9, 135],
  },
  {
    type: 32,
    name: 'stepfun',
    model: 'step-1-8k',
    url: 'https://api.stepfun.com/v1/chat/completions',
    text: '你好！我是阶跃星辰的助手。',
    usage: [82, 13, 95],
  },
  {
    type: 31,
    name: 'lingyi',
    model: 'yi-large',
    url: 'https://api.lingyiwanwu.com/v1/chat/completions',
    text: 'Hello! My name is Yi, and I am a language model based on the transformers architecture developed by 01.AI.',
    usage: [33, 35, 68],
  },
  {
    type: 19,
    name: 'ai360',
    model: '360gpt-pro',
    url: 'https://ai.360.cn/v1/chat/completions',
    text: '你好！很高兴见到你。',
    usage: [8, 7, 15],
  },
]

const chat = (model: string) =>
  jsonRelayRequest('chat', { model, messages: [{ role: 'user', content: 'Hello' }] })

describe.each(CASES)('OpenAI-format provider $name (type $type)', (provider) => {
  const channel = { type: provider.type, key: `sk-${provider.name}` }

  it('sends chat to the provider URL with the key and its own headers', () => {
    const built = build(openAiCompatibleAdaptor, chat(provider.model), channel)
    expect(built.url).toBe(provider.url)
    expect(built.headers.Authorization).toBe(`Bearer sk-${provider.name}`)
    for (const [name, value] of Object.entries(provider.headers ?? {}))
      expect(built.headers[name]).toBe(value)
    if (!provider.headers) expect(built.headers['X-Title']).toBeUndefined()
    expect(JSON.parse(String(built.body)).model).toBe(provider.model)
  })

  it('sends embeddings where the provider takes them, or refuses them', () => {
    const request = jsonRelayRequest('embeddings', { model: 'embedding-model', input: 'Hello' })
    const built = openAiCompatibleAdaptor.buildRequest(request, channel)
    if (provider.embeddings === null) {
      expect(built).toMatchObject({ kind: 'error', status: 400 })
      return
    }
    const expected = provider.embeddings ?? provider.url.replace('/chat/completions', '/embeddings')
    expect(built).toMatchObject({ kind: 'request', url: expected })
  })

  it('passes its documented answer to an OpenAI client and bills its usage', () => {
    const reply = {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: fixture(`${provider.name}.json`),
    }
    const result = parsed(openAiCompatibleAdaptor.parseResponse(reply, chat(provider.model)))
    // The bytes pass through as the provider sent them (see the note above CASES): what SDKs read.
    const completion = JSON.parse(result.body.toString('utf8'))
    expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: provider.text })
    expect(completion.usage.total_tokens).toBe(provider.usage[2])
    const [prompt, completionTokens, total] = provider.usage
    expect(result.usage).toMatchObject({ promptTokens: prompt, totalTokens: total })
    expect(result.usage!.completionTokens).toBeGreaterThanOrEqual(completionTokens)
  })
})
