import { describe, expect, it } from 'vitest'
import { NdjsonParser } from '../shared/ndjson.ts'
import { answerText } from '../testing/answer-text.ts'
import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { ollamaAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const ndjson = (name: string) => reply(name, 200, { 'content-type': 'application/x-ndjson' })
const model = 'llama3.2'
const hello = [{ role: 'user', content: 'why is the sky blue?' }]
const chat = { model, messages: hello }
const request = (body: Record<string, unknown>) => jsonRelayRequest('chat', { ...chat, ...body })
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_current_weather',
    description: 'Get the current weather for a location',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string' },
        format: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['location', 'format'],
    },
  },
}
const base64 = 'iVBORw0KGgoAAAANSUhEUg=='
const channel = { type: 30, key: 'ollama-proxy-key', baseUrl: 'http://ollama.internal:11434' }

runAdaptorConformance(ollamaAdaptor, {
  channel,
  auth: ['Authorization', 'Bearer ollama-proxy-key'],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'llama' },
      { requestedModel: 'llama', mappedModel: model },
    ),
    sent: { model, messages: hello, stream: false },
  },
  system: {
    request: request({ messages: [{ role: 'system', content: 'You are a helpful assistant.' }, ...hello] }),
    sent: { messages: [{ role: 'system', content: 'You are a helpful assistant.' }, ...hello] },
  },
  multiTurn: {
    request: request({
      messages: [
        ...hello,
        { role: 'assistant', content: 'due to rayleigh scattering.' },
        { role: 'user', content: 'how is that different than mie scattering?' },
      ],
    }),
    sent: {
      messages: [
        ...hello,
        { role: 'assistant', content: 'due to rayleigh scattering.' },
        { role: 'user', content: 'how is that different than mie scattering?' },
      ],
    },
  },
  image: {
    request: request({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is in this image?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
          ],
        },
      ],
    }),
    sent: { messages: [{ role: 'user', content: 'what is in this image?', images: [base64] }] },
  },
  tools: {
    request: request({ tools: [weatherTool], max_tokens: 200, temperature: 0.2, stop: ['END'] }),
    sent: { tools: [weatherTool], options: { num_predict: 200, temperature: 0.2, stop: ['END'] } },
  },
  text: {
    request: request({}),
    reply: reply('chat.json'),
    answer: {
      text: 'Hello! How are you today?',
      finishReason: 'stop',
      usage: { promptTokens: 26, completionTokens: 298, totalTokens: 324 },
    },
  },
  toolCall: {
    request: request({ tools: [weatherTool] }),
    reply: reply('chat-tool-call.json'),
    answer: {
      tool: { name: 'get_current_weather', arguments: { format: 'celsius', location: 'Paris, FR' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 122, completionTokens: 33, totalTokens: 155 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('chat-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 1, totalTokens: 10 },
    },
  },
  stream: {
    request: request({ stream: true }),
    sent: { stream: true },
    reply: ndjson('stream.ndjson'),
    answer: {
      text: 'Hello! Grüße 東京 🌸',
      finishReason: 'stop',
      usage: { promptTokens: 26, completionTokens: 5, totalTokens: 31 },
    },
  },
  streamedToolCall: {
    request: request({ stream: true, tools: [weatherTool] }),
    reply: ndjson('stream-tool-call.ndjson'),
    answer: {
      tool: { name: 'get_current_weather', arguments: { format: 'celsius', location: 'Paris, FR' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 122, completionTokens: 33, totalTokens: 155 },
    },
  },
  // The first three lines of the stream: the answer begun, not done.
  cutStream: Buffer.from(`${fixture('stream.ndjson').toString().split('\n').slice(0, 3).join('\n')}\n`),
  errors: {
    badRequest: reply('error-400.json', 400),
    unauthorized: reply('error-401.json', 401),
    modelNotFound: reply('error-404.json', 404),
    rateLimited: reply('error-429.json', 429),
    serverError: reply('error-500.json', 500),
  },
})

describe('Ollama beyond the suite', () => {
  it('sends remote images as the base64 the pipeline fetched, and tool calls with object arguments', () => {
    const url = 'https://example.com/cat.png'
    const withImage = request({
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
      ],
    })
    expect(ollamaAdaptor.remoteImages?.(withImage)).toEqual([url])
    const built = ollamaAdaptor.buildRequest(
      { ...withImage, images: new Map([[url, { mediaType: 'image/png', base64 }]]) },
      channel,
    )
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe('http://ollama.internal:11434/api/chat')
    expect(JSON.parse(String(built.body)).messages).toEqual([
      { role: 'user', content: '', images: [base64] },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] },
      { role: 'tool', content: 'done' },
    ])
  })

  it('embeds through /api/embed, usage from prompt_eval_count', () => {
    const embed = jsonRelayRequest('embeddings', { model: 'all-minilm', input: ['a', 'b'] })
    const built = ollamaAdaptor.buildRequest(embed, channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe('http://ollama.internal:11434/api/embed')
    expect(JSON.parse(String(built.body))).toEqual({ model: 'all-minilm', input: ['a', 'b'] })
    const parsed = ollamaAdaptor.parseResponse(
      { status: 200, headers: {}, body: fixture('embed.json') },
      embed,
    )
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const answer = JSON.parse(parsed.body.toString())
    expect(answer.data.map((item: { index: number }) => item.index)).toEqual([0, 1])
    expect(answer.usage).toEqual({ prompt_tokens: 8, total_tokens: 8 })
    expect(parsed.usage).toMatchObject({ promptTokens: 8, completionTokens: 0 })
  })

  it('reads NDJSON split anywhere, multi-byte characters included', () => {
    const lines: string[] = []
    const parser = new NdjsonParser((line) => lines.push(line))
    const bytes = Buffer.from('{"a":"東京"}\r\n\n{"b":2}\n{"c":3}')
    for (let index = 0; index < bytes.length; index += 1) parser.push(bytes.subarray(index, index + 1))
    parser.end()
    expect(lines).toEqual(['{"a":"東京"}', '{"b":2}', '{"c":3}'])
  })

  it('reads an answer that has a member named kind as an answer, not as an error', () => {
    const plain = answerText(ollamaAdaptor, fixture('chat.json'), request({}))
    expect(plain).not.toBe('')
    expect(answerText(ollamaAdaptor, fixture('chat.json'), request({}), { kind: 'error' })).toBe(plain)
  })
})
