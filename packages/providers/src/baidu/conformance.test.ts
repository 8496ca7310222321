import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { baiduAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
// Baidu answers its errors with HTTP 200 and error_code.
const reply = (name: string) => ({ status: 200, body: fixture(name) })
const sse = (name: string) => ({ ...reply(name), headers: { 'content-type': 'text/event-stream' } })
const model = 'ERNIE-3.5-8K'
const hello = [{ role: 'user', content: '你好' }]
const chat = { model, messages: hello }
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
const turns = [
  { role: 'user', content: '请介绍一下你自己' },
  { role: 'assistant', content: '我是百度公司开发的人工智能语言模型' },
  { role: 'user', content: '我在上海，周末可以去哪里玩？' },
]

runAdaptorConformance(baiduAdaptor, {
  // The pipeline passes the token it obtained with the key (see credential-exchange tests).
  channel: {
    type: 15,
    key: 'api-key|secret-key',
    accessToken: '24.6c5e1ff107f0e8bcef8c46d3424a0e78.2592000.1485516651.282335-8574074',
  },
  auth: ['?access_token', '24.6c5e1ff107f0e8bcef8c46d3424a0e78.2592000.1485516651.282335-8574074'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'ernie' },
      { requestedModel: 'ernie', mappedModel: model },
    ),
    sent: { messages: hello, stream: false },
  },
  system: {
    request: request({ messages: [{ role: 'system', content: '你是一个旅行顾问' }, ...hello] }),
    sent: { system: '你是一个旅行顾问', messages: hello },
  },
  multiTurn: { request: request({ messages: turns }), sent: { messages: turns } },
  // ERNIE v1 takes no image input; its function calling (`functions`) is not relayed.
  text: {
    request: request({}),
    reply: reply('chat.json'),
    answer: {
      text: '您好，我是百度研发的知识增强大语言模型，中文名是文心一言。',
      finishReason: 'stop',
      usage: { promptTokens: 1, completionTokens: 64, totalTokens: 65 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('chat-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 },
    },
  },
  filtered: {
    request: request({}),
    reply: reply('chat-filtered.json'),
    answer: { text: '', finishReason: 'content_filter', usage: { promptTokens: 25, totalTokens: 25 } },
  },
  stream: {
    request: request({ stream: true }),
    sent: { stream: true },
    reply: sse('stream.sse'),
    answer: {
      text: '当然可以，以下是一些建议的自驾游路线，北京到上海 🚗',
      finishReason: 'stop',
      usage: { promptTokens: 5, completionTokens: 22, totalTokens: 27 },
    },
  },
  errors: {
    badRequest: reply('error-336003.json'),
    unauthorized: reply('error-110.json'),
    modelNotFound: reply('error-3.json'),
    rateLimited: reply('error-18.json'),
    serverError: reply('error-336100.json'),
  },
})
