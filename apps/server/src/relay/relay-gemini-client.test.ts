/**
 * Gemini's API (`/v1beta/models/{model}:generateContent`, `:streamGenerateContent`,
 * `:countTokens`) through the whole gateway, driven by the official `@google/genai` client:
 * relayed natively to Gemini channels (the channel's mapped model in the URL), translated for
 * OpenAI-format ones, billed and logged as chat completions with the input API named, errors in
 * Google's shape.
 */
import { type FunctionDeclaration, GoogleGenAI, HarmBlockThreshold, HarmCategory } from '@google/genai'
import { ChannelType } from '@one-api/contracts/channel-types'
import { SAFETY_CATEGORIES } from '@one-api/providers/gemini/request-body'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const NATIVE = 'gemini-client-native'
const UPSTREAM_MODEL = 'gemini-2.0-flash'
const TRANSLATED = 'gpt-gemini-translated'
const FAILOVER = 'gemini-client-failover'
const GENERATED = 'Hello from the mock upstream'
const RATIO = 10
const lookup: FunctionDeclaration = {
  name: 'lookup',
  description: 'Looks a thing up',
  parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } },
}

describe.each(testDialects())('the Gemini API through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let key: string
  let lastRequestId: string | null = null

  /** The SDK, with the gateway's request id of each answer kept. */
  const sdk = (options: { apiKey?: string; headers?: Record<string, string> } = {}) =>
    new GoogleGenAI({
      apiKey: options.apiKey ?? key,
      httpOptions: {
        baseUrl: fixture.baseUrl,
        headers: options.headers,
        fetch: async (input, init) => {
          const response = await fetch(input, init)
          lastRequestId = response.headers.get(REQUEST_ID)
          return response
        },
      },
    })
  const geminiCalls = () =>
    fixture.mock.requests.filter((call) => call.headers['x-goog-api-key'] === 'AIza-client')

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect, { GEMINI_SAFETY_SETTING: 'BLOCK_ONLY_HIGH' })
    await fixture.addChannel({
      type: ChannelType.gemini,
      key: 'AIza-client',
      models: [NATIVE],
      model_mapping: { [NATIVE]: UPSTREAM_MODEL },
    })
    await fixture.addChannel({ key: 'sk-openai-gemini', models: [TRANSLATED, FAILOVER] })
    await fixture.addChannel({
      type: ChannelType.gemini,
      key: 'AIza-failing',
      models: [FAILOVER],
      priority: 10,
    })
    await fixture.setPrices(
      { [UPSTREAM_MODEL]: RATIO, [TRANSLATED]: RATIO, [FAILOVER]: RATIO },
      { [UPSTREAM_MODEL]: 1, [TRANSLATED]: 1, [FAILOVER]: 1 },
    )
    await fixture.setOption('RetryTimes', 2)
    key = (await fixture.createToken()).key
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('relays natively to a Gemini channel with its mapped model, billed and logged with its input API', async () => {
    const response = await sdk().models.generateContent({
      model: NATIVE,
      contents: 'one two three four',
      config: { systemInstruction: 'Be brief', temperature: 0.5 },
    })
    expect(response.text).toBe(GENERATED)
    expect(response.candidates?.[0]?.finishReason).toBe('STOP')
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 6, candidatesTokenCount: 5 })
    // The client's own body went upstream, to the channel's model, with the channel's key.
    const upstream = geminiCalls().at(-1)!
    expect(upstream.path).toBe(`/v1beta/models/${UPSTREAM_MODEL}:generateContent`)
    expect(upstream.json).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'one two three four' }] }],
      systemInstruction: { parts: [{ text: 'Be brief' }] },
      generationConfig: { temperature: 0.5 },
      // The client sent no safety settings: the administrator's, as on the translated path.
      safetySettings: SAFETY_CATEGORIES.map((category) => ({ category, threshold: 'BLOCK_ONLY_HIGH' })),
    })
    const log = await fixture.logFor(lastRequestId)
    expect(log).toMatchObject({ model_name: UPSTREAM_MODEL, prompt_tokens: 6, completion_tokens: 5 })
    expect(log.quota).toBe(11 * RATIO)
    expect(log.content).toContain('input API: Gemini generateContent')
  })

  it("keeps a client's own safety settings on the native path, and the answer is billed", async () => {
    const own = [
      { category: HarmCategory.HARM_CATEGORY_HATE_SPEECH, threshold: HarmBlockThreshold.BLOCK_LOW_AND_ABOVE },
    ]
    const response = await sdk().models.generateContent({
      model: NATIVE,
      contents: 'one two three four',
      config: { safetySettings: own },
    })
    expect(response.text).toBe(GENERATED)
    expect(geminiCalls().at(-1)!.json?.safetySettings).toEqual(own)
    expect(await fixture.logFor(lastRequestId)).toMatchObject({
      model_name: UPSTREAM_MODEL,
      quota: 9 * RATIO,
    })
  })

  it('streams natively with alt=sse, and the stream is logged and billed', async () => {
    const stream = await sdk().models.generateContentStream({ model: NATIVE, contents: 'one two three four' })
    let text = ''
    let usage: unknown
    for await (const chunk of stream) {
      text += chunk.text ?? ''
      if (chunk.usageMetadata) usage = chunk.usageMetadata
    }
    expect(text).toBe(GENERATED)
    expect(usage).toMatchObject({ promptTokenCount: 4, candidatesTokenCount: 5 })
    expect(geminiCalls().at(-1)!.path).toBe(`/v1beta/models/${UPSTREAM_MODEL}:streamGenerateContent?alt=sse`)
    const log = await fixture.logFor(lastRequestId)
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('translates for an OpenAI-format channel, answer, stream and usage in Gemini shapes', async () => {
    const response = await sdk().models.generateContent({
      model: TRANSLATED,
      contents: 'one two three four',
      config: { maxOutputTokens: 50 },
    })
    expect(response.text).toBe(GENERATED)
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: 4,
      candidatesTokenCount: 5,
      totalTokenCount: 9,
    })
    const upstream = fixture.requestsFor('sk-openai-gemini').at(-1)!
    expect(upstream.json).toMatchObject({
      model: TRANSLATED,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'one two three four' }],
    })
    const log = await fixture.logFor(lastRequestId)
    expect(log).toMatchObject({ model_name: TRANSLATED, quota: 9 * RATIO })
    expect(log.content).toContain('input API: Gemini generateContent')
    const stream = await sdk().models.generateContentStream({
      model: TRANSLATED,
      contents: 'one two three four',
    })
    let text = ''
    let finish: unknown
    let usage: unknown
    for await (const chunk of stream) {
      text += chunk.text ?? ''
      finish = chunk.candidates?.[0]?.finishReason ?? finish
      if (chunk.usageMetadata) usage = chunk.usageMetadata
    }
    expect({ text, finish }).toEqual({ text: GENERATED, finish: 'STOP' })
    expect(usage).toMatchObject({ promptTokenCount: 4, candidatesTokenCount: 5 })
    expect((await fixture.logFor(lastRequestId)).is_stream).toBe(true)
  })

  it('returns a function call from either kind of channel, streamed too', async () => {
    for (const model of [NATIVE, TRANSLATED]) {
      const request = {
        model,
        contents: 'look it up',
        config: { tools: [{ functionDeclarations: [lookup] }] },
      }
      const response = await sdk().models.generateContent(request)
      expect(response.functionCalls?.[0]).toMatchObject({ name: 'lookup', args: { mock: true } })
      let streamed: unknown
      for await (const chunk of await sdk().models.generateContentStream(request)) {
        streamed = chunk.functionCalls?.[0] ?? streamed
      }
      expect(streamed).toMatchObject({ name: 'lookup', args: { mock: true } })
    }
    // The declaration went to the OpenAI channel as a function tool.
    expect(fixture.requestsFor('sk-openai-gemini').at(-1)!.json?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'lookup',
          description: 'Looks a thing up',
          parameters: { type: 'object', properties: { q: { type: 'string' } } },
        },
      },
    ])
  })

  it('sends a function response back as a tool result', async () => {
    await sdk().models.generateContent({
      model: TRANSLATED,
      contents: [
        { role: 'user', parts: [{ text: 'look it up' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'x' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { found: 42 } } }] },
      ],
    })
    const messages = fixture.requestsFor('sk-openai-gemini').at(-1)!.json?.messages as Record<
      string,
      unknown
    >[]
    expect(messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
    })
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"found":42}' })
  })

  it('counts tokens without calling an upstream', async () => {
    const calls = fixture.mock.requests.length
    const counted = await sdk().models.countTokens({ model: NATIVE, contents: 'one two three four' })
    expect(counted.totalTokens).toBeGreaterThan(0)
    expect(fixture.mock.requests.length).toBe(calls)
  })

  it('takes the token as ?key= or a Bearer header, and streams one JSON array without alt=sse', async () => {
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })
    const headers = { 'content-type': 'application/json' }
    const viaQuery = await fetch(
      `${fixture.baseUrl}/v1beta/models/${TRANSLATED}:generateContent?key=${key}`,
      {
        method: 'POST',
        headers,
        body,
      },
    )
    expect(viaQuery.status).toBe(200)
    const array = await fetch(`${fixture.baseUrl}/v1beta/models/${NATIVE}:streamGenerateContent`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${key}` },
      body,
    })
    expect(array.headers.get('content-type')).toContain('application/json')
    const events = (await array.json()) as { candidates: { content: { parts: { text: string }[] } }[] }[]
    expect(events.map((event) => event.candidates[0]!.content.parts[0]!.text).join('')).toBe(GENERATED)
  })

  it("answers errors in Google's shape: a bad key, an unknown model, a request Google refuses", async () => {
    const badKey = await sdk({ apiKey: 'sk-not-a-token' })
      .models.generateContent({ model: NATIVE, contents: 'hi' })
      .catch((error: unknown) => error as { status: number; message: string })
    expect(badKey).toMatchObject({ status: 401 })
    const post = (model: string, body: unknown) =>
      fetch(`${fixture.baseUrl}/v1beta/models/${model}:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
        body: JSON.stringify(body),
      })
    const unknown = await post('no-such-model', { contents: [{ parts: [{ text: 'hi' }] }] })
    const unknownBody = (await unknown.json()) as { error: { code: number; status: string; message: string } }
    expect(unknownBody.error).toMatchObject({ code: unknown.status })
    expect(unknownBody.error.status).toMatch(/^[A-Z_]+$/)
    const empty = await post(NATIVE, { contents: [] })
    expect(empty.status).toBe(400)
    expect(await empty.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } })
  })

  it('fails over from a Gemini channel answering 503 to an OpenAI-format one, in the same request', async () => {
    fixture.mock.addFault({ match: { keyContains: 'AIza-failing' }, status: 503, times: 1 })
    const response = await sdk().models.generateContent({ model: FAILOVER, contents: 'one two three four' })
    expect(response.text).toBe(GENERATED)
    const failed = fixture.mock.requests.filter((call) => call.headers['x-goog-api-key'] === 'AIza-failing')
    expect(failed).toHaveLength(1)
    expect(fixture.requestsFor('sk-openai-gemini').at(-1)!.json?.model).toBe(FAILOVER)
    const log = await fixture.logFor(lastRequestId)
    expect(log).toMatchObject({ model_name: FAILOVER, quota: 9 * RATIO })
  })

  it('answers a browser preflight on the Gemini paths', async () => {
    const preflight = await fetch(`${fixture.baseUrl}/v1beta/models/${NATIVE}:generateContent`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-goog-api-key, content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-goog-api-key')
  })
})
