import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { zhipuAdaptor } from './adaptor.ts'
import { signZhipuToken } from './jwt.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
const model = 'glm-4'
const hello = [{ role: 'user', content: '你好' }]
const chat = { model, messages: hello }
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
// Zhipu's own tool example (https://open.bigmodel.cn/dev/api/normal-model/glm-4, tools).
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: '根据提供的城市名称，查询该城市的天气',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string', description: '城市名称，如：北京' } },
      required: ['location'],
    },
  },
}
const image = {
  type: 'image_url',
  image_url: { url: 'https://img1.baidu.com/it/u=1369931113,3388870256&fm=253' },
}

runAdaptorConformance(zhipuAdaptor, {
  channel: { type: 16, key: 'zhipu-id.zhipu-secret' },
  // The pipeline's receivedAt is 0 in these requests: the token is issued at time 0.
  auth: ['Authorization', signZhipuToken('zhipu-id', 'zhipu-secret', 0)],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'glm' },
      { requestedModel: 'glm', mappedModel: model },
    ),
    sent: { model, messages: hello },
  },
  system: {
    request: request({
      messages: [{ role: 'system', content: '你是一个乐于解答各种问题的助手。' }, ...hello],
    }),
    sent: { messages: [{ role: 'system', content: '你是一个乐于解答各种问题的助手。' }, ...hello] },
  },
  multiTurn: {
    request: request({
      messages: [
        { role: 'user', content: '作为一名营销专家，请为我的产品创作一个吸引人的口号' },
        { role: 'assistant', content: '当然，要创作一个吸引人的口号，请告诉我一些关于您产品的信息' },
        { role: 'user', content: '智谱AI开放平台' },
      ],
    }),
    sent: {
      messages: [
        { role: 'user', content: '作为一名营销专家，请为我的产品创作一个吸引人的口号' },
        { role: 'assistant', content: '当然，要创作一个吸引人的口号，请告诉我一些关于您产品的信息' },
        { role: 'user', content: '智谱AI开放平台' },
      ],
    },
  },
  image: {
    request: request({
      model: 'glm-4v',
      messages: [{ role: 'user', content: [{ type: 'text', text: '图里有什么' }, image] }],
    }),
    sent: { messages: [{ role: 'user', content: [{ type: 'text', text: '图里有什么' }, image] }] },
  },
  tools: {
    request: request({ tools: [weatherTool], tool_choice: 'auto', temperature: 1.5, top_p: 1 }),
    sent: { tools: [weatherTool], tool_choice: 'auto', temperature: 1, top_p: 1 },
  },
  text: {
    request: request({}),
    reply: reply('chat.json'),
    answer: {
      text: '智谱AI是一家专注于大模型与认知智能技术的公司。',
      finishReason: 'stop',
      usage: { promptTokens: 31, completionTokens: 217, totalTokens: 248 },
    },
  },
  toolCall: {
    request: request({ tools: [weatherTool] }),
    reply: reply('chat-tool-call.json'),
    answer: {
      tool: { name: 'get_weather', arguments: { location: '北京' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 160, completionTokens: 13, totalTokens: 173 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('chat-empty.json'),
    answer: {
      text: '',
      finishReason: 'length',
      usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 },
    },
  },
  filtered: {
    request: request({}),
    reply: reply('chat-sensitive.json'),
    answer: {
      text: '',
      finishReason: 'content_filter',
      usage: { promptTokens: 25, completionTokens: 2, totalTokens: 27 },
    },
  },
  stream: {
    request: request({ stream: true, stream_options: { include_usage: false } }),
    sent: { stream: true },
    reply: sse('stream.sse'),
    answer: {
      text: '土星有光环 🪐',
      finishReason: 'stop',
      usage: { promptTokens: 60, completionTokens: 5, totalTokens: 65 },
    },
  },
  streamedToolCall: {
    request: request({ stream: true, tools: [weatherTool] }),
    reply: sse('stream-tool-call.sse'),
    answer: {
      tool: { name: 'get_weather', arguments: { location: '北京' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 160, completionTokens: 13, totalTokens: 173 },
    },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-1211.json', 400),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})
