/**
 * The chat requests every Claude channel (Anthropic's API, Claude on Vertex AI) is checked with in
 * the conformance suite, and the Messages body each must send for them. Both speak Anthropic's
 * Messages format, so the requests and the bodies are the same; only the model id, the channel and
 * the recorded answers differ. Examples from Anthropic's Messages and tool-use documentation.
 */
import { jsonRelayRequest } from '../testing/relay-request.ts'

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

/** The system, multi-turn, image and tool cases, each with the request and the body Claude gets. */
export function claudeRequestCases(model: string) {
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
  }
}
