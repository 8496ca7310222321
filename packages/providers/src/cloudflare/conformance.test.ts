import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { cloudflareAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200) => ({ status, body: fixture(name) })
const sse = (name: string) => ({ ...reply(name), headers: { 'content-type': 'text/event-stream' } })
const model = '@cf/meta/llama-3.1-8b-instruct'
const hello = [{ role: 'user', content: 'Make some robot noises' }]
const chat = { model, messages: hello }
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
const turns = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Who won the world series in 2020?' },
  { role: 'assistant', content: 'The Los Angeles Dodgers won the World Series in 2020.' },
  { role: 'user', content: 'Where was it played?' },
]
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather for a location',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
}
const image = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this image?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ],
  },
]

runAdaptorConformance(cloudflareAdaptor, {
  channel: { type: 37, key: 'cf-api-token', config: { user_id: '023e105f4ecef8ad9ca31a8372d0c353' } },
  auth: ['Authorization', 'Bearer cf-api-token'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'llama' },
      { requestedModel: 'llama', mappedModel: model },
    ),
    sent: { model, messages: hello },
  },
  system: { request: request({ messages: turns.slice(0, 2) }), sent: { messages: turns.slice(0, 2) } },
  multiTurn: { request: request({ messages: turns }), sent: { messages: turns } },
  image: {
    request: request({ model: '@cf/meta/llama-3.2-11b-vision-instruct', messages: image }),
    sent: { messages: image },
  },
  tools: {
    request: request({ tools: [weatherTool], tool_choice: 'auto' }),
    sent: { tools: [weatherTool], tool_choice: 'auto' },
  },
  text: {
    request: request({}),
    reply: reply('chat.json'),
    answer: {
      text: 'Hello! How can I assist you today?',
      finishReason: 'stop',
      usage: { promptTokens: 40, completionTokens: 10, totalTokens: 50 },
    },
  },
  toolCall: {
    request: request({ tools: [weatherTool] }),
    reply: reply('chat-tool-call.json'),
    answer: {
      tool: { name: 'get_weather', arguments: { location: 'Austin, TX' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 175, completionTokens: 21, totalTokens: 196 },
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
  // Workers AI reports no filtered answers; its streamed tool calls are not documented.
  stream: {
    request: request({ stream: true }),
    sent: { stream: true, stream_options: { include_usage: true } },
    reply: sse('stream.sse'),
    answer: {
      text: 'Hello from Workers AI ☁️',
      finishReason: 'stop',
      usage: { promptTokens: 18, completionTokens: 6, totalTokens: 24 },
    },
  },
  errors: {
    badRequest: reply('error-5006.json', 400),
    unauthorized: reply('error-10000.json', 401),
    modelNotFound: reply('error-5007.json', 400),
    rateLimited: reply('error-3040.json', 429),
    serverError: reply('error-3043.json', 500),
  },
})
