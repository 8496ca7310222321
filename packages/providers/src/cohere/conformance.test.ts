import { describe, expect, it } from 'vitest'
import { answerText } from '../testing/answer-text.ts'
import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { cohereAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const sse = (name: string) => reply(name, 200, { 'content-type': 'text/event-stream' })
const model = 'command-a-03-2025'
const hello = [{ role: 'user', content: 'Hello, Cohere' }]
const chat = { model, messages: hello }
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'gets the weather of a given location',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
}
const image = 'data:image/jpeg;base64,/9j/4AAQSkZJRg=='
const channel = { type: 35, key: 'co-upstream-key' }

runAdaptorConformance(cohereAdaptor, {
  channel,
  auth: ['Authorization', 'Bearer co-upstream-key'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'command' },
      { requestedModel: 'command', mappedModel: model },
    ),
    sent: { model, messages: hello },
  },
  system: {
    request: request({ messages: [{ role: 'system', content: 'You respond concisely.' }, ...hello] }),
    sent: { messages: [{ role: 'system', content: 'You respond concisely.' }, ...hello] },
  },
  multiTurn: {
    request: request({
      messages: [
        { role: 'user', content: 'Hello there.' },
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'What is an LLM?' },
      ],
    }),
    sent: {
      messages: [
        { role: 'user', content: 'Hello there.' },
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'What is an LLM?' },
      ],
    },
  },
  image: {
    request: request({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe the image' },
            { type: 'image_url', image_url: { url: image, detail: 'low' } },
          ],
        },
      ],
    }),
    sent: {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe the image' },
            { type: 'image_url', image_url: { url: image } },
          ],
        },
      ],
    },
  },
  tools: {
    request: request({
      tools: [weatherTool],
      tool_choice: 'required',
      max_tokens: 300,
      top_p: 0.9,
      stop: 'END',
    }),
    sent: {
      tools: [{ type: 'function', function: weatherTool.function }],
      tool_choice: 'REQUIRED',
      max_tokens: 300,
      p: 0.9,
      stop_sequences: ['END'],
    },
  },
  text: {
    request: request({}),
    reply: reply('chat.json'),
    answer: {
      text: 'LLMs stand for Large Language Models, which are a type of neural network model specialized in processing and generating human language.',
      finishReason: 'stop',
      usage: { promptTokens: 83, completionTokens: 25, totalTokens: 108 },
    },
  },
  toolCall: {
    request: request({ tools: [weatherTool] }),
    reply: reply('chat-tool-call.json'),
    answer: {
      tool: { name: 'get_weather', arguments: { location: 'Toronto' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 913, completionTokens: 81, totalTokens: 994 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('chat-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 71, completionTokens: 0, totalTokens: 71 },
    },
  },
  filtered: {
    request: request({}),
    reply: reply('chat-filtered.json'),
    answer: {
      text: '',
      finishReason: 'content_filter',
      usage: { promptTokens: 75, completionTokens: 0, totalTokens: 75 },
    },
  },
  stream: {
    request: request({ stream: true }),
    sent: { stream: true },
    reply: sse('stream.sse'),
    answer: {
      text: 'Hello! Grüße 東京 🌸',
      finishReason: 'stop',
      usage: { promptTokens: 69, completionTokens: 5, totalTokens: 74 },
    },
  },
  streamedToolCall: {
    request: request({ stream: true, tools: [weatherTool] }),
    reply: sse('stream-tool-call.sse'),
    answer: {
      tool: { name: 'get_weather', arguments: { location: 'Toronto' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 913, completionTokens: 81, totalTokens: 994 },
    },
  },
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})

describe('Cohere beyond chat', () => {
  it('sends tool calls and tool results back in Cohere form', () => {
    const built = cohereAdaptor.buildRequest(
      request({
        messages: [
          ...hello,
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        ],
      }),
      channel,
    )
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe('https://api.cohere.ai/v2/chat')
    expect(JSON.parse(String(built.body)).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
    ])
  })

  it('embeds through /v2/embed and answers in OpenAI form, base64 when asked', () => {
    const embed = jsonRelayRequest('embeddings', { model: 'embed-v4.0', input: ['hello', 'goodbye'] })
    const built = cohereAdaptor.buildRequest(embed, { ...channel, baseUrl: 'https://api.cohere.com/v2' })
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe('https://api.cohere.com/v2/embed')
    expect(JSON.parse(String(built.body))).toEqual({
      model: 'embed-v4.0',
      texts: ['hello', 'goodbye'],
      input_type: 'search_document',
      embedding_types: ['float'],
    })
    const parsed = cohereAdaptor.parseResponse(
      { status: 200, headers: {}, body: fixture('embed.json') },
      embed,
    )
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const answer = JSON.parse(parsed.body.toString())
    expect(answer.data).toHaveLength(2)
    expect(answer.data[0].embedding).toEqual([0.016296387, -0.008354187, -0.04699707])
    expect(answer.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 })
    expect(parsed.usage?.promptTokens).toBe(2)
    const asBase64 = jsonRelayRequest('embeddings', {
      model: 'embed-v4.0',
      input: 'hello',
      encoding_format: 'base64',
    })
    const encoded = cohereAdaptor.parseResponse(
      { status: 200, headers: {}, body: fixture('embed.json') },
      asBase64,
    )
    if (encoded.kind !== 'response') throw new Error(encoded.message)
    const vector = JSON.parse(encoded.body.toString()).data[0].embedding
    expect(Buffer.from(vector, 'base64').readFloatLE(0)).toBeCloseTo(0.016296387, 6)
  })

  it('reranks through /v2/rerank and answers in the Jina shape, documents when asked', () => {
    const documents = [
      'Carson City is the capital.',
      { text: 'Saipan is a capital.' },
      'Washington',
      'Capital punishment',
      'Ottawa',
    ]
    const rerank = jsonRelayRequest('rerank', {
      model: 'rerank-v3.5',
      query: 'What is the capital of the United States?',
      documents,
      top_n: 2,
      return_documents: true,
    })
    const built = cohereAdaptor.buildRequest(rerank, channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe('https://api.cohere.ai/v2/rerank')
    expect(JSON.parse(String(built.body))).toEqual({
      model: 'rerank-v3.5',
      query: 'What is the capital of the United States?',
      documents: [
        'Carson City is the capital.',
        'Saipan is a capital.',
        'Washington',
        'Capital punishment',
        'Ottawa',
      ],
      top_n: 2,
    })
    const parsed = cohereAdaptor.parseResponse(
      { status: 200, headers: {}, body: fixture('rerank.json') },
      rerank,
    )
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(parsed.usage).toBeUndefined()
    expect(JSON.parse(parsed.body.toString()).results).toEqual([
      { index: 3, relevance_score: 0.999071, document: { text: 'Capital punishment' } },
      { index: 4, relevance_score: 0.7867867, document: { text: 'Ottawa' } },
    ])
  })

  it('reads an answer that has a member named kind as an answer, not as an error', () => {
    const plain = answerText(cohereAdaptor, fixture('chat.json'), request({}))
    expect(plain).not.toBe('')
    expect(answerText(cohereAdaptor, fixture('chat.json'), request({}), { kind: 'error' })).toBe(plain)
  })
})
