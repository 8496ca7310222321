/**
 * The cases every Claude channel (Anthropic's API, Claude on Vertex AI) is checked with in the
 * conformance suite: the chat requests, the Messages body each must send, and Anthropic's recorded
 * answers and streams (Google documents rawPredict's answers in the same shape). Only the model id,
 * the channel, the plain request's body and the errors differ between them. Examples from
 * Anthropic's Messages and tool-use documentation.
 */
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, headers?: Record<string, string>) => ({
  status: 200,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, { 'content-type': 'text/event-stream' })
const noReasoning = { reasoningTokens: 0 }

const hello = [{ role: 'user', content: 'Hello, Claude' }]
const base64 = '/9j/4AAQSkZJRg=='

/** OpenAI's form of the weather tool the tool cases offer. */
export const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather in a given location',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' } },
      required: ['location'],
    },
  },
}

/** Anthropic's form of the same tool. */
export const anthropicTool = {
  name: 'get_weather',
  description: weatherTool.function.description,
  input_schema: weatherTool.function.parameters,
}

/** The first user turn as Claude receives it: a text block. */
export const helloBlocks = [{ role: 'user', content: [{ type: 'text', text: 'Hello, Claude' }] }]

/** A chat request for `model`, "Hello, Claude" unless `body` says otherwise. */
export const claudeChatRequest = (model: string) => (body: Record<string, unknown>) =>
  jsonRelayRequest('chat', { model, messages: hello, ...body })

/**
 * Every case but the plain request and the errors: the requests with the body Claude gets, and
 * Anthropic's documented answers and streams (Claude on Vertex answers in the same shape) with what
 * the client must read from them.
 */
export function claudeCases(model: string) {
  const request = claudeChatRequest(model)
  return {
    system: {
      request: request({
        messages: [{ role: 'system', content: 'You are a seasoned data scientist.' }, ...hello],
      }),
      sent: { system: 'You are a seasoned data scientist.', messages: helloBlocks },
    },
    multiTurn: {
      request: request({
        messages: [
          { role: 'user', content: 'Hello there.' },
          { role: 'assistant', content: "Hi, I'm Claude. How can I help you?" },
          { role: 'user', content: 'Can you explain LLMs in plain English?' },
        ],
      }),
      sent: {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hello there.' }] },
          { role: 'assistant', content: [{ type: 'text', text: "Hi, I'm Claude. How can I help you?" }] },
          { role: 'user', content: [{ type: 'text', text: 'Can you explain LLMs in plain English?' }] },
        ],
      },
    },
    image: {
      request: request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${base64}` } },
              { type: 'text', text: 'What is in the above image?' },
            ],
          },
        ],
      }),
      sent: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: base64 } },
              { type: 'text', text: 'What is in the above image?' },
            ],
          },
        ],
      },
    },
    tools: {
      request: request({ tools: [weatherTool], tool_choice: 'required', max_tokens: 1024 }),
      sent: { tools: [anthropicTool], tool_choice: { type: 'any' }, max_tokens: 1024 },
    },
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
  }
}
