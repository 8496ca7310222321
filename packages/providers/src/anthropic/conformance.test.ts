import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { anthropicAdaptor } from './adaptor.ts'
import { claudeChatRequest, claudeRequestCases, helloBlocks, weatherTool } from './conformance-cases.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
const model = 'claude-3-7-sonnet-20250219'
const request = claudeChatRequest(model)
const noReasoning = { reasoningTokens: 0 }

runAdaptorConformance(anthropicAdaptor, {
  channel: { type: 14, key: 'sk-ant-upstream' },
  auth: ['x-api-key', 'sk-ant-upstream'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { model: 'claude', messages: [{ role: 'user', content: 'Hello, Claude' }] },
      { requestedModel: 'claude', mappedModel: model },
    ),
    sent: { model, max_tokens: 4096, messages: helloBlocks },
  },
  ...claudeRequestCases(model),
  text: {
    request: request({}),
    reply: reply('message.json'),
    answer: {
      text: 'Hi! My name is Claude.',
      finishReason: 'stop',
      // The prompt is the uncached input plus the cache reads and writes.
      usage: {
        promptTokens: 6197,
        completionTokens: 503,
        totalTokens: 6700,
        cachedTokens: 2051,
        cacheWriteTokens: 2051,
        ...noReasoning,
      },
    },
  },
  toolCall: {
    request: request({ tools: [weatherTool] }),
    reply: reply('message-tool-use.json'),
    answer: {
      text: "I'll check the current weather in San Francisco for you.",
      tool: { name: 'get_weather', arguments: { location: 'San Francisco, CA', unit: 'celsius' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 384, completionTokens: 89, totalTokens: 473, cachedTokens: 0 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('message-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 },
    },
  },
  filtered: {
    request: request({}),
    reply: reply('message-refusal.json'),
    answer: {
      text: '',
      finishReason: 'content_filter',
      usage: { promptTokens: 25, completionTokens: 3, totalTokens: 28 },
    },
  },
  stream: {
    request: request({ stream: true }),
    sent: { stream: true },
    reply: sse('stream.sse'),
    answer: {
      text: 'Hello! Grüße 東京 🌸',
      finishReason: 'stop',
      usage: { promptTokens: 25, completionTokens: 15, totalTokens: 40, cachedTokens: 0 },
    },
  },
  streamedToolCall: {
    request: request({ stream: true, tools: [weatherTool] }),
    reply: sse('stream-tool-use.sse'),
    answer: {
      text: "Okay, let's check the weather for San Francisco, CA:",
      tool: { name: 'get_weather', arguments: { location: 'San Francisco, CA', unit: 'fahrenheit' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 472, completionTokens: 89, totalTokens: 561 },
    },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429, { 'retry-after': '30' }),
    serverError: reply('error-529.json', 529),
  },
})
