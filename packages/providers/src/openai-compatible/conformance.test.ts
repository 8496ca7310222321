import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { openAiCompatibleAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const noDetails = { cachedTokens: 0, reasoningTokens: 0 }
const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] }

runAdaptorConformance(openAiCompatibleAdaptor, {
  channel: { type: 1, key: 'sk-upstream' },
  text: {
    request: jsonRelayRequest('chat', chat),
    reply: reply('chat-completion.json'),
    usage: { promptTokens: 19, completionTokens: 10, totalTokens: 29, ...noDetails },
    text: 'Hello! How can I assist you today?',
  },
  tools: {
    request: jsonRelayRequest('chat', JSON.parse(fixture('chat-tool-call.request.json').toString())),
    reply: reply('chat-tool-call.json'),
    toolName: 'get_current_weather',
    usage: { promptTokens: 82, completionTokens: 17, totalTokens: 99, ...noDetails },
  },
  stream: {
    request: jsonRelayRequest('chat', { ...chat, stream: true }),
    reply: reply('chat-stream.sse', 200, { 'content-type': 'text/event-stream' }),
    usage: { promptTokens: 13, completionTokens: 9, totalTokens: 22, ...noDetails },
    text: 'Hello! Grüße "aus" 東京 🌸',
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429, { 'retry-after': '1' }),
    serverError: reply('error-500.json', 500),
  },
})
