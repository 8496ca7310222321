/**
 * Gemini channels (type 24) through the whole gateway, driven by the official `openai` client:
 * the mock upstream checks the key header and Google's request rules, the answers are OpenAI's,
 * bills and logs follow Gemini's usage metadata, and failures follow the retry and auto-disable
 * policy (Google answers a bad key with 400 API_KEY_INVALID).
 */
import { ChannelType } from '@one-api/contracts/channel-types'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const PLAIN = 'gemini-2.0-flash-e2e'
const CACHED = 'gemini-2.0-flash-e2e-cache+cached-tokens=2'
const EMBED = 'text-embedding-004-e2e'
const FAILING = 'gemini-2.0-flash-e2e-failover'
const BAD_KEY = 'gemini-2.0-flash-e2e-bad-key'
const RATIO = 10
const ask = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'one two three four' }],
})
const API_KEY_INVALID = {
  error: {
    code: 400,
    message: 'API key not valid. Please pass a valid API key.',
    status: 'INVALID_ARGUMENT',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
  },
}

describe.each(testDialects())('Gemini channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  let geminiChannel: number
  const upstreamCalls = (key: string) =>
    fixture.mock.requests.filter((call) => call.headers['x-goog-api-key'] === key)

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect, {
      CHANNEL_DISABLE_FAILURE_COUNT: '1',
      GEMINI_SAFETY_SETTING: 'BLOCK_ONLY_HIGH',
    })
    geminiChannel = await fixture.addChannel({
      type: ChannelType.gemini,
      key: 'AIza-e2e',
      models: [PLAIN, CACHED, EMBED],
    })
    await fixture.addChannel({
      type: ChannelType.gemini,
      key: 'AIza-failing',
      models: [FAILING],
      priority: 10,
    })
    await fixture.addChannel({ key: 'sk-openai-backup', models: [FAILING, BAD_KEY], priority: 0 })
    await fixture.addChannel({
      type: ChannelType.gemini,
      key: 'AIza-refused',
      models: [BAD_KEY],
      priority: 10,
    })
    const models = [PLAIN, CACHED, EMBED, FAILING, BAD_KEY]
    await fixture.priceModels(models, RATIO)
    await fixture.setOption('AutomaticDisableChannelEnabled', true)
    await fixture.setOption('RetryTimes', 2)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers in OpenAI format, calls Gemini as Google wants it, and bills and logs the usage', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(PLAIN)).withResponse()
    expect(data.object).toBe('chat.completion')
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.choices[0]!.finish_reason).toBe('stop')
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    const upstream = upstreamCalls('AIza-e2e').at(-1)!
    expect(upstream.path).toBe(`/v1beta/models/${PLAIN}:generateContent`)
    expect(upstream.headers.authorization).toBeUndefined()
    expect(upstream.json).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'one two three four' }] }],
    })
    // GEMINI_SAFETY_SETTING reaches every harm category.
    const settings = upstream.json?.safetySettings as { threshold: string }[]
    expect(settings.map((setting) => setting.threshold)).toEqual(Array(5).fill('BLOCK_ONLY_HIGH'))
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: PLAIN, prompt_tokens: 4, completion_tokens: 5, quota: 9 * RATIO })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(9 * RATIO)
  })

  it('reports the cached part of the prompt from cachedContentTokenCount', async () => {
    const { data } = await client.chat.completions.create(ask(CACHED)).withResponse()
    expect(data.usage?.prompt_tokens_details?.cached_tokens).toBe(2)
    expect(data.usage?.prompt_tokens).toBe(4)
  })

  it('streams with alt=sse, with the usage chunk the client asked for, and logs the stream', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(PLAIN), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { pieces, usage } = await readChatStream(stream)
    expect(pieces.join('')).toBe('Hello from the mock upstream')
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    expect(upstreamCalls('AIza-e2e').at(-1)!.path).toBe(
      `/v1beta/models/${PLAIN}:streamGenerateContent?alt=sse`,
    )
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('translates tools to function declarations and streams the call back as tool call deltas', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      },
    ]
    const stream = await client.chat.completions.create({ ...ask(PLAIN), tools, stream: true })
    const { toolName: name, toolArguments: args, finish } = await readChatStream(stream)
    expect({ name, args: JSON.parse(args), finish }).toEqual({
      name: 'lookup',
      args: { mock: true },
      finish: 'tool_calls',
    })
    expect(upstreamCalls('AIza-e2e').at(-1)!.json).toMatchObject({
      tools: [{ functionDeclarations: [{ name: 'lookup', parameters: { type: 'object' } }] }],
    })
  })

  it('embeds through batchEmbedContents and bills the input counted locally', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBED, input: ['one two', 'three'], encoding_format: 'float' })
      .withResponse()
    expect(data.data).toHaveLength(2)
    expect(data.data[0]!.embedding.length).toBeGreaterThan(0)
    expect(upstreamCalls('AIza-e2e').at(-1)!.path).toBe(`/v1/models/${EMBED}:batchEmbedContents`)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.model_name).toBe(EMBED)
    expect(log.prompt_tokens).toBeGreaterThan(0)
    expect(log.quota).toBe(log.prompt_tokens * RATIO)
    // Without encoding_format the SDK asks for base64 and decodes it: the same vectors arrive.
    const decoded = await client.embeddings.create({ model: EMBED, input: ['one two', 'three'] })
    expect(decoded.data.map((item) => item.embedding)).toEqual(
      data.data.map((item) => item.embedding.map((value) => Math.fround(value))),
    )
  })

  it('returns a 400 of Gemini as it is, without trying another channel', async () => {
    fixture.mock.addFault({ match: { keyContains: 'AIza-failing' }, status: 400, times: 1 })
    const backupCalls = fixture.requestsFor('sk-openai-backup').length
    const failure = await relayFailure(client.chat.completions.create(ask(FAILING)))
    expect(failure.status).toBe(400)
    expect(failure.error.type).toBe('INVALID_ARGUMENT')
    expect(fixture.requestsFor('sk-openai-backup').length).toBe(backupCalls)
  })

  it('fails over on 429 RESOURCE_EXHAUSTED and 5xx', async () => {
    for (const status of [429, 500, 503]) {
      fixture.mock.addFault({ match: { keyContains: 'AIza-failing' }, status, times: 1 })
      const completion = await client.chat.completions.create(ask(FAILING))
      expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    }
    expect(fixture.requestsFor('sk-openai-backup').length).toBeGreaterThanOrEqual(3)
  })

  it('disables a channel whose key Google refuses (400 API_KEY_INVALID), and serves from the next one', async () => {
    fixture.mock.addFault({ match: { keyContains: 'AIza-refused' }, status: 400, body: API_KEY_INVALID })
    const completion = await client.chat.completions.create(ask(BAD_KEY))
    expect(upstreamCalls('AIza-refused')).toHaveLength(1)
    expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    await fixture.waitUntilAutoDisabled('key', 'AIza-refused')
    fixture.mock.clearFaults()
  })

  it('tests a Gemini channel from the console through its adaptor, with its first model', async () => {
    const result = await fixture.root.get(`/api/channel/test/${geminiChannel}`)
    expect(result.body).toMatchObject({ success: true, model: PLAIN })
    expect(upstreamCalls('AIza-e2e').at(-1)!.path).toBe(`/v1beta/models/${PLAIN}:generateContent`)
  })
})
