/**
 * The Gemini adaptor against the mock upstream over real HTTP: the mock checks the key header and
 * refuses what Google refuses, so these prove the adaptor's URLs, headers and bodies.
 */
import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelCredentials, RelayRequest } from '../adaptor.ts'
import { splitEvery } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { geminiAdaptor } from './adaptor.ts'

let mock: MockUpstream
let channel: ChannelCredentials
beforeAll(async () => {
  mock = await startMockUpstream({ apiKeys: ['AIza-upstream'] })
  channel = { type: 24, key: 'AIza-upstream', baseUrl: mock.url }
})
afterAll(() => mock.close())

async function call(request: RelayRequest, target = channel) {
  const built = geminiAdaptor.buildRequest(request, target)
  if (built.kind !== 'request') throw new Error(built.message)
  const response = await fetch(built.url, {
    method: 'POST',
    headers: built.headers,
    body: built.body as string,
  })
  const body = Buffer.from(await response.arrayBuffer())
  return { built, status: response.status, headers: Object.fromEntries(response.headers), body }
}

const chat = (body: Record<string, unknown> = {}) =>
  jsonRelayRequest('chat', {
    model: 'gemini-2.0-flash',
    messages: [
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'one two three four' },
    ],
    ...body,
  })

const answerOf = (result: Awaited<ReturnType<typeof call>>, request: RelayRequest) => {
  const parsed = geminiAdaptor.parseResponse(result, request)
  if (parsed.kind !== 'response') throw new Error(parsed.message)
  return { json: JSON.parse(parsed.body.toString()), usage: parsed.usage }
}

describe('Gemini adaptor against the mock upstream', () => {
  it('is answered, with the key in x-goog-api-key, on v1beta for gemini-2.0 models', async () => {
    const result = await call(chat())
    expect(result.status).toBe(200)
    const upstream = mock.requests.at(-1)!
    expect(upstream.path).toBe('/v1beta/models/gemini-2.0-flash:generateContent')
    expect(upstream.headers['x-goog-api-key']).toBe('AIza-upstream')
    expect(upstream.headers.authorization).toBeUndefined()
    expect(upstream.json).toMatchObject({ systemInstruction: { parts: [{ text: 'Be brief' }] } })
    const { json, usage } = answerOf(result, chat())
    expect(json.choices[0].message.content).toBe('Hello from the mock upstream')
    // Six words: the system instruction's two and the user's four.
    expect(usage).toMatchObject({ promptTokens: 6, completionTokens: 5, totalTokens: 11 })
  })

  it('uses GEMINI_VERSION for other models, and the channel api_version over both', async () => {
    const other = chat({ model: 'gemma-3-27b-it' })
    await call(other, { ...channel, defaults: { geminiVersion: 'v1alpha' } })
    expect(mock.requests.at(-1)!.path).toBe('/v1alpha/models/gemma-3-27b-it:generateContent')
    await call(other)
    expect(mock.requests.at(-1)!.path).toBe('/v1/models/gemma-3-27b-it:generateContent')
    await call(jsonRelayRequest('embeddings', { model: 'gemini-embedding-001', input: 'x' }))
    expect(mock.requests.at(-1)!.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents')
    await call(chat(), { ...channel, config: { api_version: 'v1' } })
    expect(mock.requests.at(-1)!.path).toBe('/v1/models/gemini-2.0-flash:generateContent')
  })

  it('sends GEMINI_SAFETY_SETTING for every harm category', async () => {
    const result = await call(chat(), { ...channel, defaults: { geminiSafetySetting: 'BLOCK_ONLY_HIGH' } })
    expect(result.status).toBe(200)
    const settings = mock.requests.at(-1)!.json?.safetySettings as { threshold: string }[]
    expect(settings).toHaveLength(5)
    expect(settings.every((setting) => setting.threshold === 'BLOCK_ONLY_HIGH')).toBe(true)
  })

  it('streams with alt=sse into OpenAI chunks ending in [DONE]', async () => {
    const request = chat({ stream: true, stream_options: { include_usage: true } })
    const result = await call(request)
    expect(mock.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse')
    const built = result.built
    const transformer = geminiAdaptor.createStreamTransformer(request, built)
    let output = ''
    for (const piece of splitEvery(result.body, 9)) output += transformer.push(piece)
    output += transformer.finish()
    expect(output.endsWith('data: [DONE]\n\n')).toBe(true)
    expect(transformer.completionText).toBe('Hello from the mock upstream')
    expect(transformer.usage).toMatchObject({ promptTokens: 6, completionTokens: 5 })
    expect(output).toContain('"usage":{"prompt_tokens":6,"completion_tokens":5,"total_tokens":11')
  })

  it('calls a function and sends its result back as a functionResponse', async () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'lookup',
          parameters: { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false },
        },
      },
    ]
    const first = chat({ tools, tool_choice: { type: 'function', function: { name: 'lookup' } } })
    const { json } = answerOf(await call(first), first)
    const toolCall = json.choices[0].message.tool_calls[0]
    expect(json.choices[0].finish_reason).toBe('tool_calls')
    expect(toolCall.function).toEqual({ name: 'lookup', arguments: '{"mock":true}' })
    const second = chat({
      tools,
      messages: [
        { role: 'user', content: 'look it up' },
        { role: 'assistant', content: null, tool_calls: [toolCall] },
        { role: 'tool', tool_call_id: toolCall.id, content: '{"found":42}' },
      ],
    })
    expect((await call(second)).status).toBe(200)
    expect(mock.requests.at(-1)!.json?.contents).toEqual([
      { role: 'user', parts: [{ text: 'look it up' }] },
      { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { mock: true } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { found: 42 } } }] },
    ])
  })

  it('embeds through batchEmbedContents, one vector per input', async () => {
    const request = jsonRelayRequest('embeddings', {
      model: 'text-embedding-004',
      input: ['a b', 'c'],
      dimensions: 3,
    })
    const result = await call(request)
    expect(mock.requests.at(-1)!.path).toBe('/v1/models/text-embedding-004:batchEmbedContents')
    const { json } = answerOf(result, request)
    expect(json.data).toHaveLength(2)
    expect(json.data[1]).toMatchObject({ object: 'embedding', index: 1 })
    expect(json.data[1].embedding).toHaveLength(3)
  })

  it('reads a wrong key (Google answers 400 API_KEY_INVALID) as a 401 that disables the channel', async () => {
    const result = await call(chat(), { ...channel, key: 'AIza-wrong' })
    expect(result.status).toBe(400)
    const error = geminiAdaptor.parseResponse(result, chat())
    expect(error).toMatchObject({ kind: 'error', status: 401, disableChannel: true, retryable: true })
  })

  it('returns a request Google refuses as a 400, neither retried nor disabling', async () => {
    const request = chat({ messages: [{ role: 'user', content: '' }] })
    const result = await call(request)
    const error = geminiAdaptor.parseResponse(result, request)
    expect(error).toMatchObject({ kind: 'error', status: 400, retryable: false, disableChannel: false })
    expect(error.kind === 'error' && error.message).toContain('contents')
  })

  it('retries 429 RESOURCE_EXHAUSTED and 503 on another channel', async () => {
    for (const status of [429, 503]) {
      const request = chat({ model: `gemini-2.0-flash+status=${status}` })
      const error = geminiAdaptor.parseResponse(await call(request), request)
      expect(error).toMatchObject({ kind: 'error', status, retryable: true, disableChannel: false })
    }
  })
})
