/**
 * Gemini on Vertex AI through the shared conformance suite: Google's documented
 * GenerateContentResponse bodies and alt=sse streams (the same on Vertex as on the Gemini API),
 * Vertex's error bodies, the OAuth token the pipeline's credential exchange yields as the bearer.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 */
import { describe, expect, it } from 'vitest'
import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { testServiceAccount } from '../testing/service-account.ts'
import { vertexAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
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

const account = testServiceAccount('https://oauth2.googleapis.com/token')

runAdaptorConformance(vertexAdaptor, {
  channel: {
    type: 42,
    key: `us-central1|my-project|${account.adc}`,
    accessToken: 'ya29.a0AfB_byC-test-token',
  },
  auth: ['authorization', 'Bearer ya29.a0AfB_byC-test-token'],
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
          parts: [{ inlineData: { mimeType: 'image/jpeg', data: base64 } }, { text: 'Caption this image.' }],
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
    reply: reply('gemini-generate-content.json'),
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
    reply: reply('gemini-generate-content-function-call.json'),
    answer: {
      tool: { name: 'get_current_temperature', arguments: { location: 'London' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 62, completionTokens: 16, totalTokens: 78, cachedTokens: 0 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('gemini-generate-content-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 0, totalTokens: 9 },
    },
  },
  filtered: {
    request: request({}),
    reply: reply('gemini-generate-content-blocked.json'),
    answer: {
      text: '',
      finishReason: 'content_filter',
      usage: { promptTokens: 14, completionTokens: 0, totalTokens: 14 },
    },
  },
  stream: {
    request: request({ stream: true }),
    reply: sse('gemini-stream.sse'),
    answer: {
      text: 'Hello! Grüße 東京 🌸',
      finishReason: 'stop',
      usage: { promptTokens: 11, completionTokens: 8, totalTokens: 19, cachedTokens: 0 },
    },
  },
  streamedToolCall: {
    request: request({ stream: true, tools: [weatherTool] }),
    reply: sse('gemini-stream-function-call.sse'),
    answer: {
      text: 'Let me check the temperature in London.',
      tool: { name: 'get_current_temperature', arguments: { location: 'London' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 62, completionTokens: 81, totalTokens: 143, reasoningTokens: 56 },
    },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    // Vertex answers a token it does not take with 401 UNAUTHENTICATED.
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})

describe('Gemini on Vertex AI specifics', () => {
  const channel = { type: 42, key: `us-central1|my-project|${account.adc}`, accessToken: 'ya29.token' }

  it('calls publisher google in the project and region, streams with alt=sse', () => {
    const built = vertexAdaptor.buildRequest(request({ stream: true }), channel)
    expect(built).toMatchObject({
      url: 'https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
      headers: { authorization: 'Bearer ya29.token' },
    })
    expect((built as { headers: Record<string, string> }).headers).not.toHaveProperty('x-goog-api-key')
  })

  it('serves chat only (Vertex embeddings are another API)', () => {
    const embeddings = jsonRelayRequest('embeddings', { model: 'gemini-embedding-001', input: 'hi' })
    expect(vertexAdaptor.buildRequest(embeddings, channel)).toMatchObject({ kind: 'error', status: 400 })
  })
})
