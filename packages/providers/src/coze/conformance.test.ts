import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { cozeAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
// Coze answers errors with HTTP 200 and a JSON body; answers as an event stream.
const reply = (name: string) => ({ status: 200, body: fixture(name) })
const sse = (name: string) => ({ ...reply(name), headers: { 'content-type': 'text/event-stream' } })
const model = 'bot-7379462189365198898'
const chat = { model, messages: [{ role: 'user', content: '今天星期几？' }] }
const question = (content: string) => ({ role: 'user', type: 'question', content, content_type: 'text' })
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
const imageUrl = 'https://example.com/cat.png'

runAdaptorConformance(cozeAdaptor, {
  channel: { type: 34, key: 'pat_mock_coze_token', config: { user_id: '123456789' } },
  auth: ['Authorization', 'Bearer pat_mock_coze_token'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'coze' },
      { requestedModel: 'coze', mappedModel: model },
    ),
    sent: {
      bot_id: '7379462189365198898',
      user_id: '123456789',
      stream: true,
      additional_messages: [question('今天星期几？')],
    },
  },
  system: {
    request: request({ messages: [{ role: 'system', content: '用中文回答' }, ...chat.messages] }),
    sent: { additional_messages: [question('用中文回答'), question('今天星期几？')] },
  },
  multiTurn: {
    request: request({
      messages: [
        { role: 'user', content: '你好' },
        { role: 'assistant', content: '你好，有什么可以帮你？' },
        { role: 'user', content: '今天星期几？' },
      ],
    }),
    sent: {
      additional_messages: [
        question('你好'),
        { role: 'assistant', type: 'answer', content: '你好，有什么可以帮你？', content_type: 'text' },
        question('今天星期几？'),
      ],
    },
  },
  image: {
    request: request({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '这是什么？' },
            { type: 'image_url', image_url: { url: imageUrl } },
          ],
        },
      ],
    }),
    sent: {
      additional_messages: [
        {
          role: 'user',
          type: 'question',
          content_type: 'object_string',
          content: JSON.stringify([
            { type: 'text', text: '这是什么？' },
            { type: 'image', file_url: imageUrl },
          ]),
        },
      ],
    },
  },
  // Coze bots call their own plugins; the chat API takes no client tools. Nor does it report a
  // filtered answer as such.
  text: {
    request: request({}),
    reply: sse('stream.sse'),
    answer: {
      text: '2024 年 10 月 1 日是星期二。🎉',
      finishReason: 'stop',
      usage: { promptTokens: 614, completionTokens: 19, totalTokens: 633 },
    },
  },
  empty: {
    request: request({}),
    reply: sse('stream-empty.sse'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 },
    },
  },
  stream: {
    request: request({ stream: true }),
    sent: { stream: true },
    reply: sse('stream.sse'),
    answer: {
      text: '2024 年 10 月 1 日是星期二。🎉',
      finishReason: 'stop',
      usage: { promptTokens: 614, completionTokens: 19, totalTokens: 633 },
    },
  },
  errors: {
    badRequest: reply('error-4000.json'),
    unauthorized: reply('error-4100.json'),
    modelNotFound: reply('error-4200.json'),
    rateLimited: reply('error-4013.json'),
    serverError: reply('error-5000.json'),
  },
})
