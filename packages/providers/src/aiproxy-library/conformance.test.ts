/**
 * AI Proxy Library (type 21) through the shared conformance suite, where it applies: the library
 * is asked one question (the last message) and reports no token usage, so the gateway counts the
 * answer's text; it takes no system prompt, earlier turns, images or tools.
 */
import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { aiProxyLibraryAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, contentType = 'application/json') => ({
  status,
  headers: { 'content-type': contentType },
  body: fixture(name),
})
const ask = (extra: Record<string, unknown> = {}) =>
  jsonRelayRequest(
    'chat',
    { model: 'my-library', messages: [{ role: 'user', content: '什么是 AI Proxy？' }], ...extra },
    { requestedModel: 'my-library', mappedModel: 'gpt-3.5-turbo' },
  )
// The answer with its documents appended as links, as one-api shows them.
const answer =
  'AI Proxy 是一个大模型 API 代理平台。\n\n参考文档：\n- [AI Proxy 简介](https://docs.aiproxy.io/intro)'
const oneQuestion = 'the library is asked the last message alone'
const noTools = 'the library answers questions from its documents: no tools'

runAdaptorConformance(aiProxyLibraryAdaptor, {
  channel: { type: 21, key: 'ap-library-key', config: { library_id: 'lib-123' } },
  auth: ['Authorization', 'Bearer ap-library-key'],
  plain: {
    request: ask(),
    sent: { model: 'gpt-3.5-turbo', query: '什么是 AI Proxy？', libraryId: 'lib-123' },
  },
  // No usage: the answer's text is counted by the gateway.
  text: { request: ask(), reply: reply('ask.json'), answer: { text: answer, finishReason: 'stop' } },
  empty: { request: ask(), reply: reply('ask-empty.json'), answer: { text: '', finishReason: 'stop' } },
  stream: {
    request: ask({ stream: true }),
    reply: reply('ask-stream.sse', 200, 'text/event-stream'),
    answer: { text: answer, finishReason: 'stop' },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
  notApplicable: {
    system: `${oneQuestion}: it takes no system prompt`,
    multiTurn: `${oneQuestion}: earlier turns are not sent`,
    image: 'the library takes a text question',
    tools: noTools,
    toolCall: noTools,
    streamedToolCall: noTools,
    filtered: 'the library reports no filtered answers',
    usageChunk: 'the library reports no usage: the gateway counts the answer after the stream',
  },
})
