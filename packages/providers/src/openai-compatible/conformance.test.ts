import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { openAiCompatibleAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const json = (name: string) => JSON.parse(fixture(name).toString())
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
const noDetails = { cachedTokens: 0, reasoningTokens: 0 }
const hello = [{ role: 'user', content: 'Say hello' }]
const chat = { model: 'gpt-4o-mini', messages: hello }
const mapped = (body: Record<string, unknown>) =>
  jsonRelayRequest('chat', body, { requestedModel: 'my-gpt', mappedModel: 'gpt-4o-mini' })
const system = [{ role: 'system', content: 'You are terse.' }, ...hello]
const turns = [
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello! How can I help?' },
  { role: 'user', content: 'Tell me a joke' },
]
const image = [
  {
    role: 'user',
    content: [
      { type: 'text', text: "What's in this image?" },
      { type: 'image_url', image_url: { url: 'https://example.com/boardwalk.jpg' } },
    ],
  },
]
const toolRequest = json('chat-tool-call.request.json')
const weather = { location: 'Boston, MA' }

runAdaptorConformance(openAiCompatibleAdaptor, {
  channel: { type: 1, key: 'sk-upstream' },
  auth: ['Authorization', 'Bearer sk-upstream'],
  plain: { request: mapped({ ...chat, model: 'my-gpt' }), sent: { model: 'gpt-4o-mini', messages: hello } },
  system: { request: jsonRelayRequest('chat', { ...chat, messages: system }), sent: { messages: system } },
  multiTurn: { request: jsonRelayRequest('chat', { ...chat, messages: turns }), sent: { messages: turns } },
  image: { request: jsonRelayRequest('chat', { ...chat, messages: image }), sent: { messages: image } },
  tools: {
    request: jsonRelayRequest('chat', toolRequest),
    sent: { tools: toolRequest.tools, tool_choice: 'auto' },
  },
  text: {
    request: jsonRelayRequest('chat', chat),
    reply: reply('chat-completion.json'),
    answer: {
      text: 'Hello! How can I assist you today?',
      finishReason: 'stop',
      usage: { promptTokens: 19, completionTokens: 10, totalTokens: 29, ...noDetails },
    },
  },
  toolCall: {
    request: jsonRelayRequest('chat', toolRequest),
    reply: reply('chat-tool-call.json'),
    answer: {
      tool: { name: 'get_current_weather', arguments: weather },
      finishReason: 'tool_calls',
      usage: { promptTokens: 82, completionTokens: 17, totalTokens: 99, ...noDetails },
    },
  },
  empty: {
    request: jsonRelayRequest('chat', chat),
    reply: reply('chat-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 },
    },
  },
  filtered: {
    request: jsonRelayRequest('chat', chat),
    reply: reply('chat-filtered.json'),
    answer: {
      text: '',
      finishReason: 'content_filter',
      usage: { promptTokens: 25, completionTokens: 3, totalTokens: 28 },
    },
  },
  stream: {
    request: jsonRelayRequest('chat', { ...chat, stream: true }),
    sent: { stream: true, stream_options: { include_usage: true } },
    reply: sse('chat-stream.sse'),
    answer: {
      text: 'Hello! Grüße "aus" 東京 🌸',
      finishReason: 'stop',
      usage: { promptTokens: 13, completionTokens: 9, totalTokens: 22, ...noDetails },
    },
  },
  streamedToolCall: {
    request: jsonRelayRequest('chat', { ...toolRequest, stream: true }),
    reply: sse('chat-stream-tool-call.sse'),
    answer: {
      tool: { name: 'get_current_weather', arguments: weather },
      finishReason: 'tool_calls',
      usage: { promptTokens: 82, completionTokens: 17, totalTokens: 99 },
    },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429, { 'retry-after': '1' }),
    serverError: reply('error-500.json', 500),
  },
})
