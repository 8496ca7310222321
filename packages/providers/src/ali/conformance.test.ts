import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { aliAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const json = (name: string) => JSON.parse(fixture(name).toString())
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
const hello = [{ role: 'user', content: '你是谁？' }]
const chat = { model: 'qwen-plus', messages: hello }
const system = [{ role: 'system', content: 'You are a helpful assistant.' }, ...hello]
const turns = [
  { role: 'user', content: '你好' },
  { role: 'assistant', content: '你好！有什么可以帮你？' },
  { role: 'user', content: '讲个笑话' },
]
const image = [
  {
    role: 'user',
    content: [
      {
        type: 'image_url',
        image_url: { url: 'https://dashscope.oss-cn-beijing.aliyuncs.com/images/dog_and_girl.jpeg' },
      },
      { type: 'text', text: '这是什么?' },
    ],
  },
]
const toolRequest = json('chat-tool-call.request.json')
const weather = { location: '杭州市' }
const usage = (input: number, output: number) => ({
  promptTokens: input,
  completionTokens: output,
  totalTokens: input + output,
})

runAdaptorConformance(aliAdaptor, {
  channel: { type: 17, key: 'sk-dashscope' },
  auth: ['Authorization', 'Bearer sk-dashscope'],
  plain: {
    request: jsonRelayRequest('chat', { ...chat, model: 'my-qwen' }, { mappedModel: 'qwen-plus' }),
    sent: { model: 'qwen-plus', input: { messages: hello }, parameters: { result_format: 'message' } },
  },
  system: {
    request: jsonRelayRequest('chat', { ...chat, messages: system }),
    sent: { input: { messages: system } },
  },
  multiTurn: {
    request: jsonRelayRequest('chat', { ...chat, messages: turns }),
    sent: { input: { messages: turns } },
  },
  image: {
    request: jsonRelayRequest('chat', { model: 'qwen-vl-max', messages: image }),
    sent: {
      model: 'qwen-vl-max',
      input: {
        messages: [
          {
            role: 'user',
            content: [
              { image: 'https://dashscope.oss-cn-beijing.aliyuncs.com/images/dog_and_girl.jpeg' },
              { text: '这是什么?' },
            ],
          },
        ],
      },
    },
  },
  tools: {
    request: jsonRelayRequest('chat', toolRequest),
    sent: { parameters: { tools: toolRequest.tools, tool_choice: 'auto', result_format: 'message' } },
  },
  text: {
    request: jsonRelayRequest('chat', chat),
    reply: reply('chat.json'),
    answer: {
      text: '我是阿里云开发的一款超大规模语言模型，我叫通义千问。',
      finishReason: 'stop',
      usage: usage(22, 16),
    },
  },
  toolCall: {
    request: jsonRelayRequest('chat', toolRequest),
    reply: reply('chat-tool-call.json'),
    answer: {
      tool: { name: 'get_current_weather', arguments: weather },
      finishReason: 'tool_calls',
      usage: usage(201, 18),
    },
  },
  empty: {
    request: jsonRelayRequest('chat', chat),
    reply: reply('chat-empty.json'),
    answer: { text: '', finishReason: 'stop', usage: usage(22, 1) },
  },
  filtered: {
    request: jsonRelayRequest('chat', chat),
    reply: reply('chat-filtered.json', 400),
    answer: { text: '', finishReason: 'content_filter', usage: { totalTokens: 0 } },
  },
  stream: {
    request: jsonRelayRequest('chat', { ...chat, stream: true }),
    reply: sse('chat-stream.sse'),
    sent: { parameters: { incremental_output: true, result_format: 'message' } },
    answer: {
      text: '我是来自阿里云的超大规模语言模型，我叫通义千问。',
      finishReason: 'stop',
      usage: usage(22, 16),
    },
  },
  streamedToolCall: {
    request: jsonRelayRequest('chat', { ...toolRequest, stream: true }),
    reply: sse('chat-stream-tool-call.sse'),
    answer: {
      tool: { name: 'get_current_weather', arguments: weather },
      finishReason: 'tool_calls',
      usage: usage(201, 18),
    },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})
