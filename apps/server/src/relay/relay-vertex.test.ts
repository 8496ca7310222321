/**
 * Vertex AI channels (type 42) through the whole gateway: the pipeline exchanges the channel's
 * service account (a key pair made for the test) for an OAuth token at the mock's token endpoint,
 * which checks the JWT signature with the account's public key, caches it, and renews it once when
 * Vertex refuses it; Claude is called with rawPredict and streamRawPredict, Gemini with
 * generateContent (natively for Gemini API clients), embeddings with predict. Driven by the
 * official `openai`, `@anthropic-ai/sdk` and `@google/genai` clients, with the bill, the log and
 * the disable policy checked.
 */
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { ChannelType } from '@one-api/contracts/channel-types'
import { testServiceAccount } from '@one-api/providers/testing/service-account'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const CLAUDE = 'claude-3-5-haiku@20241022'
const GEMINI = 'gemini-2.0-flash-001'
const FAILING = 'claude-3-5-sonnet-v2@20241022'
const REFUSED = 'claude-3-opus@20240229'
const EMBED = 'text-embedding-005'
const GEMINI_EMBED = 'gemini-embedding-001'
const RATIO = 10
const GENERATED = 'Hello from the mock upstream'
const ask = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'one two three four' }],
})

describe.each(testDialects())('Vertex AI channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  let account: ReturnType<typeof testServiceAccount>
  let servingChannel: number
  const tokenCalls = () => fixture.mock.requests.filter((call) => call.path === '/token').length
  const vertexCalls = (project: string) =>
    fixture.mock.requests.filter((call) => call.path.startsWith(`/v1/projects/${project}/`))

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect, {
      CHANNEL_DISABLE_FAILURE_COUNT: '1',
      GEMINI_SAFETY_SETTING: 'BLOCK_ONLY_HIGH',
    })
    account = testServiceAccount(`${fixture.mock.url}/token`)
    fixture.mock.vertex.addServiceAccount(account.email, account.publicKey)
    servingChannel = await fixture.addChannel({
      type: ChannelType.vertexAi,
      key: `us-east5|serving-project|${account.adc}`,
      models: [CLAUDE, GEMINI, EMBED, GEMINI_EMBED],
    })
    await fixture.addChannel({
      type: ChannelType.vertexAi,
      key: `us-east5|failing-project|${account.adc}`,
      models: [FAILING],
      priority: 10,
    })
    // An account Google does not know: its token exchange is refused.
    const stranger = testServiceAccount(
      `${fixture.mock.url}/token`,
      'stranger@mock-project.iam.gserviceaccount.com',
    )
    await fixture.addChannel({
      type: ChannelType.vertexAi,
      key: `us-east5|refused-project|${stranger.adc}`,
      models: [REFUSED],
      priority: 10,
    })
    await fixture.addChannel({ key: 'sk-openai-backup', models: [FAILING, REFUSED], priority: 0 })
    const models = [CLAUDE, GEMINI, FAILING, REFUSED, EMBED, GEMINI_EMBED]
    await fixture.priceModels(models, RATIO)
    await fixture.setOption('AutomaticDisableChannelEnabled', true)
    await fixture.setOption('RetryTimes', 2)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('obtains a token once, calls Claude with it, and bills and logs the usage', async () => {
    const before = tokenCalls()
    const { data, response } = await client.chat.completions.create(ask(CLAUDE)).withResponse()
    expect(data.choices[0]!.message.content).toBe(GENERATED)
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    const call = vertexCalls('serving-project').at(-1)!
    expect(call.path).toBe(
      `/v1/projects/serving-project/locations/us-east5/publishers/anthropic/models/${CLAUDE}:rawPredict`,
    )
    expect(call.headers.authorization).toMatch(/^Bearer ya29\.mock-/)
    expect(call.json).toMatchObject({ anthropic_version: 'vertex-2023-10-16' })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: CLAUDE,
      prompt_tokens: 4,
      completion_tokens: 5,
      quota: 9 * RATIO,
    })
    // The token is cached: further requests make no exchange.
    await client.chat.completions.create(ask(CLAUDE))
    expect(tokenCalls()).toBe(before + 1)
    expect(vertexCalls('serving-project').at(-1)!.headers.authorization).toBe(call.headers.authorization)
  })

  it('streams Claude through streamRawPredict with the usage the client asked for', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(CLAUDE), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { text, usage } = await readChatStream(stream)
    expect(text).toBe(GENERATED)
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    expect(vertexCalls('serving-project').at(-1)!.path).toMatch(/:streamRawPredict$/)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('renews a token Vertex no longer takes, once, and serves the request on the same channel', async () => {
    fixture.mock.vertex.revokeTokens()
    const exchanges = tokenCalls()
    const calls = vertexCalls('serving-project').length
    const completion = await client.chat.completions.create(ask(CLAUDE))
    expect(completion.choices[0]!.message.content).toBe(GENERATED)
    expect(tokenCalls()).toBe(exchanges + 1)
    // The refused call and its retry with the new token.
    const [refused, retried] = vertexCalls('serving-project').slice(calls)
    expect(refused!.headers.authorization).not.toBe(retried!.headers.authorization)
    const row = await fixture.db
      .selectFrom('channels')
      .select('status')
      .where('models', '=', `${CLAUDE},${GEMINI},${EMBED},${GEMINI_EMBED}`)
      .executeTakeFirstOrThrow()
    expect(row.status).toBe(1)
  })

  it('calls Gemini models with generateContent and streamGenerateContent?alt=sse under publisher google', async () => {
    const { data, response } = await client.chat.completions.create(ask(GEMINI)).withResponse()
    expect(data.choices[0]!.message.content).toBe(GENERATED)
    const call = vertexCalls('serving-project').at(-1)!
    expect(call.path).toBe(
      `/v1/projects/serving-project/locations/us-east5/publishers/google/models/${GEMINI}:generateContent`,
    )
    expect(call.headers.authorization).toMatch(/^Bearer ya29\.mock-/)
    expect(call.json).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'one two three four' }] }] })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: GEMINI,
      prompt_tokens: 4,
      completion_tokens: 5,
      quota: 9 * RATIO,
    })
    const stream = await client.chat.completions.create({ ...ask(GEMINI), stream: true })
    const { text } = await readChatStream(stream)
    expect(text).toBe(GENERATED)
    expect(vertexCalls('serving-project').at(-1)!.path).toMatch(/:streamGenerateContent\?alt=sse$/)
  })

  it('relays /v1/messages clients (the Anthropic SDK) natively to Claude on Vertex, and bridged to Gemini', async () => {
    const anthropic = new Anthropic({ baseURL: fixture.baseUrl, apiKey: token.key, maxRetries: 0 })
    const { data: message, response } = await anthropic.messages
      .create({
        model: CLAUDE,
        max_tokens: 100,
        system: 'Be brief',
        messages: [{ role: 'user', content: 'one two three four' }],
      })
      .withResponse()
    expect(message.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(message.usage).toMatchObject({ input_tokens: 6, output_tokens: 5 })
    // The client's own body, without the model (it is in the URL) and with Vertex's version.
    expect(vertexCalls('serving-project').at(-1)!.json).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 100,
      system: 'Be brief',
      messages: [{ role: 'user', content: 'one two three four' }],
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: CLAUDE,
      prompt_tokens: 6,
      completion_tokens: 5,
      quota: 11 * RATIO,
    })
    const stream = anthropic.messages.stream({
      model: CLAUDE,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    })
    const final = await stream.finalMessage()
    expect(final.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(vertexCalls('serving-project').at(-1)!.path).toMatch(/publishers\/anthropic\/.*:streamRawPredict$/)
    const gemini = await anthropic.messages.create({
      model: GEMINI,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(gemini.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(vertexCalls('serving-project').at(-1)!.path).toMatch(/publishers\/google\/.*:generateContent$/)
  })

  it('embeds through predict (the SDK asks base64), billed by the token counts Vertex reports', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBED, input: ['one two three', 'four'], dimensions: 4 })
      .withResponse()
    // The SDK decoded the base64 vectors the gateway sent for its default encoding.
    expect(data.data.map((item) => item.embedding)).toEqual([
      [0.5, 1 / 3, 0.25, 0.2].map((value) => Math.fround(Number(value.toFixed(6)))),
      [1, 2 / 3, 0.5, 0.4].map((value) => Math.fround(Number(value.toFixed(6)))),
    ])
    expect(data.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 })
    const call = vertexCalls('serving-project').at(-1)!
    expect(call.path).toBe(
      `/v1/projects/serving-project/locations/us-east5/publishers/google/models/${EMBED}:predict`,
    )
    expect(call.headers.authorization).toMatch(/^Bearer ya29\.mock-/)
    expect(call.json).toEqual({
      instances: [{ content: 'one two three' }, { content: 'four' }],
      parameters: { outputDimensionality: 4 },
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: EMBED, prompt_tokens: 4, completion_tokens: 0, quota: 4 * RATIO })
    const single = await client.embeddings.create({
      model: GEMINI_EMBED,
      input: 'one two',
      encoding_format: 'float',
    })
    expect(single.data[0]!.embedding).toHaveLength(8)
  })

  it('returns Vertex refusing gemini-embedding-001 with several texts as a 400, not billed', async () => {
    const before = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(
      client.embeddings.create({ model: GEMINI_EMBED, input: ['one', 'two'] }),
    )
    expect(failure.status).toBe(400)
    expect(failure.error.type).toBe('invalid_request_error')
    expect(failure.error.message).toContain('one instance per request')
    expect(await fixture.tokenQuota(token.id)).toEqual(before)
  })

  it('relays Gemini API clients (@google/genai) natively to Gemini on Vertex, with the safety setting', async () => {
    let requestId: string | null = null
    const genai = new GoogleGenAI({
      apiKey: token.key,
      httpOptions: {
        baseUrl: fixture.baseUrl,
        fetch: async (input, init) => {
          const response = await fetch(input, init)
          requestId = response.headers.get(REQUEST_ID)
          return response
        },
      },
    })
    const answer = await genai.models.generateContent({
      model: GEMINI,
      contents: 'one two three four',
      config: { systemInstruction: 'Be brief', temperature: 0.5 },
    })
    expect(answer.text).toBe(GENERATED)
    expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 6, candidatesTokenCount: 5 })
    const call = vertexCalls('serving-project').at(-1)!
    expect(call.path).toBe(
      `/v1/projects/serving-project/locations/us-east5/publishers/google/models/${GEMINI}:generateContent`,
    )
    expect(call.headers.authorization).toMatch(/^Bearer ya29\.mock-/)
    // The client's own body (not an OpenAI translation), with the administrator's safety setting.
    expect(call.json).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'one two three four' }] }],
      systemInstruction: { parts: [{ text: 'Be brief' }] },
      generationConfig: { temperature: 0.5 },
    })
    expect(call.json?.safetySettings).toHaveLength(5)
    expect(call.json?.safetySettings).toContainEqual({
      category: 'HARM_CATEGORY_HARASSMENT',
      threshold: 'BLOCK_ONLY_HIGH',
    })
    const log = await fixture.logFor(requestId)
    expect(log).toMatchObject({
      model_name: GEMINI,
      prompt_tokens: 6,
      completion_tokens: 5,
      quota: 11 * RATIO,
    })
    expect(log.content).toContain('input API: Gemini generateContent')
    const own = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_LOW_AND_ABOVE' }] as never
    const stream = await genai.models.generateContentStream({
      model: GEMINI,
      contents: 'one two three four',
      config: { safetySettings: own },
    })
    let text = ''
    for await (const chunk of stream) text += chunk.text ?? ''
    expect(text).toBe(GENERATED)
    const streamed = vertexCalls('serving-project').at(-1)!
    expect(streamed.path).toMatch(/publishers\/google\/.*:streamGenerateContent\?alt=sse$/)
    // The client's own safety settings are kept as they are.
    expect(streamed.json?.safetySettings).toEqual(own)
    expect(await fixture.logFor(requestId)).toMatchObject({ is_stream: true, quota: 9 * RATIO })
    // A content without a role, which the Gemini API takes and Vertex refuses: sent as the user's.
    const roleless = await fetch(`${fixture.baseUrl}/v1beta/models/${GEMINI}:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': token.key },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
    })
    expect(roleless.status).toBe(200)
    expect(vertexCalls('serving-project').at(-1)!.json?.contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
    ])
  })

  it('serves Gemini API clients (@google/genai) from Claude on Vertex through the Gemini bridge', async () => {
    const genai = new GoogleGenAI({ apiKey: token.key, httpOptions: { baseUrl: fixture.baseUrl } })
    const answer = await genai.models.generateContent({ model: CLAUDE, contents: 'one two three four' })
    expect(answer.text).toBe(GENERATED)
    expect(vertexCalls('serving-project').at(-1)!.path).toMatch(/publishers\/anthropic\/.*:rawPredict$/)
  })

  it('tests a Vertex AI channel from the console with the token it obtains', async () => {
    const result = await fixture.root.get(
      `/api/channel/test/${servingChannel}?model=${encodeURIComponent(CLAUDE)}`,
    )
    expect(result.body).toMatchObject({ success: true, model: CLAUDE, message: GENERATED })
    expect(vertexCalls('serving-project').at(-1)!.headers.authorization).toMatch(/^Bearer ya29\.mock-/)
  })

  it('fails over on RESOURCE_EXHAUSTED (429) and 5xx', async () => {
    const backupCalls = fixture.requestsFor('sk-openai-backup').length
    for (const status of [429, 500]) {
      fixture.mock.addFault({ match: { path: '/projects/failing-project/' }, status, times: 1 })
      const completion = await client.chat.completions.create(ask(FAILING))
      expect(completion.choices[0]!.message.content).toBe(GENERATED)
    }
    expect(fixture.requestsFor('sk-openai-backup').length).toBe(backupCalls + 2)
  })

  it('disables a channel whose service account the token endpoint refuses, and serves from the next one', async () => {
    const completion = await client.chat.completions.create(ask(REFUSED))
    expect(completion.choices[0]!.message.content).toBe(GENERATED)
    // Without a token, Vertex itself was never called.
    expect(vertexCalls('refused-project')).toHaveLength(0)
    await fixture.waitUntilAutoDisabled('models', REFUSED)
  })
})
