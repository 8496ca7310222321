/**
 * The chat cases of the conformance suite for Google's GenerateContent API, shared by the Gemini
 * API adaptor and Gemini on Vertex AI (the same bodies and streams on both): `reply` and `sse`
 * answer with the adaptor's copy of the named fixture of Google's documentation.
 */
import type { RecordedReply } from '../testing/conformance.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'

const model = 'gemini-2.0-flash'
const hello = [{ role: 'user', content: 'Explain how AI works in a few words' }]
const chat = { model, messages: hello }
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
const helloTurn = { role: 'user', parts: [{ text: 'Explain how AI works in a few words' }] }
const base64 = '/9j/4AAQSkZJRg=='
// The tool of Google's function calling guide (https://ai.google.dev/gemini-api/docs/function-calling).
const parameters = {
  type: 'object',
  properties: { location: { type: 'string', description: 'The city name, e.g. San Francisco' } },
  required: ['location'],
}
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_current_temperature',
    description: 'Gets the current temperature for a given location.',
    parameters: { ...parameters, additionalProperties: false },
  },
}

export function geminiChatCases(
  reply: (name: string) => RecordedReply,
  sse: (name: string) => RecordedReply,
) {
  return {
    plain: {
      request: jsonRelayRequest(
        'chat',
        { ...chat, model: 'gemini' },
        { requestedModel: 'gemini', mappedModel: model },
      ),
      sent: {
        contents: [helloTurn],
        safetySettings: [
          { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_NONE' },
          { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' },
        ],
      },
    },
    system: {
      request: request({
        messages: [{ role: 'system', content: 'You are a cat. Your name is Neko.' }, ...hello],
      }),
      sent: {
        systemInstruction: { parts: [{ text: 'You are a cat. Your name is Neko.' }] },
        contents: [helloTurn],
      },
    },
    multiTurn: {
      request: request({
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Great to meet you. What would you like to know?' },
          { role: 'user', content: 'I have two dogs in my house. How many paws are in my house?' },
        ],
      }),
      sent: {
        contents: [
          { role: 'user', parts: [{ text: 'Hello' }] },
          { role: 'model', parts: [{ text: 'Great to meet you. What would you like to know?' }] },
          { role: 'user', parts: [{ text: 'I have two dogs in my house. How many paws are in my house?' }] },
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
              { type: 'text', text: 'Caption this image.' },
            ],
          },
        ],
      }),
      sent: {
        contents: [
          {
            role: 'user',
            parts: [
              { inlineData: { mimeType: 'image/jpeg', data: base64 } },
              { text: 'Caption this image.' },
            ],
          },
        ],
      },
    },
    tools: {
      request: request({ tools: [weatherTool], tool_choice: 'required', max_tokens: 1024 }),
      sent: {
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_current_temperature',
                description: 'Gets the current temperature for a given location.',
                parameters,
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
        generationConfig: { maxOutputTokens: 1024 },
      },
    },
    text: {
      request: request({}),
      reply: reply('generate-content.json'),
      answer: {
        text: 'AI learns patterns from data to make predictions or decisions.',
        finishReason: 'stop',
        // Thinking is billed as output; the cached part is inside the prompt count.
        usage: {
          promptTokens: 2061,
          completionTokens: 492,
          totalTokens: 2553,
          cachedTokens: 2048,
          reasoningTokens: 480,
        },
      },
    },
    toolCall: {
      request: request({ tools: [weatherTool] }),
      reply: reply('generate-content-function-call.json'),
      answer: {
        tool: { name: 'get_current_temperature', arguments: { location: 'London' } },
        finishReason: 'tool_calls',
        usage: { promptTokens: 62, completionTokens: 16, totalTokens: 78, cachedTokens: 0 },
      },
    },
    empty: {
      request: request({}),
      reply: reply('generate-content-empty.json'),
      answer: {
        text: '',
        finishReason: 'stop',
        usage: { promptTokens: 9, completionTokens: 0, totalTokens: 9 },
      },
    },
    filtered: {
      request: request({}),
      reply: reply('generate-content-blocked.json'),
      answer: {
        text: '',
        finishReason: 'content_filter',
        usage: { promptTokens: 14, completionTokens: 0, totalTokens: 14 },
      },
    },
    stream: {
      request: request({ stream: true }),
      reply: sse('stream.sse'),
      answer: {
        text: 'Hello! Grüße 東京 🌸',
        finishReason: 'stop',
        usage: { promptTokens: 11, completionTokens: 8, totalTokens: 19, cachedTokens: 0 },
      },
    },
    streamedToolCall: {
      request: request({ stream: true, tools: [weatherTool] }),
      reply: sse('stream-function-call.sse'),
      answer: {
        text: 'Let me check the temperature in London.',
        tool: { name: 'get_current_temperature', arguments: { location: 'London' } },
        finishReason: 'tool_calls',
        usage: { promptTokens: 62, completionTokens: 81, totalTokens: 143, reasoningTokens: 56 },
      },
    },
  }
}
