/**
 * `POST /v1/messages` (Anthropic's Messages API) through the whole gateway, driven by the official
 * `@anthropic-ai/sdk`: relayed natively to Anthropic channels, translated for OpenAI-format ones,
 * billed and logged as chat completions, errors in Anthropic's shape; and `count_tokens`.
 */
import Anthropic from '@anthropic-ai/sdk'
import { ChannelType } from '@one-api/contracts/channel-types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const NATIVE = 'claude-msg-native'
const TRANSLATED = 'gpt-msg-translated'
const FAILOVER = 'claude-msg-failover'
const GENERATED = 'Hello from the mock upstream'
const RATIO = 10
const hello = [{ role: 'user' as const, content: 'one two three four' }]
const tools: Anthropic.Tool[] = [
  { name: 'lookup', description: 'Looks a thing up', input_schema: { type: 'object', properties: {} } },
]

describe.each(testDialects())('the Messages API through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: Anthropic
  let key: string

  const sdk = (options: { apiKey?: string; authToken?: string }) =>
    new Anthropic({ baseURL: fixture.baseUrl, maxRetries: 0, ...options })
  const lastCall = (header: string, value: string) =>
    fixture.mock.requests.filter((call) => call.headers[header] === value).at(-1)!

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({
      type: ChannelType.anthropic,
      key: 'sk-ant-msg',
      models: [NATIVE, FAILOVER],
      model_mapping: { [NATIVE]: 'claude-3-5-haiku-latest' },
      priority: 10,
    })
    await fixture.addChannel({ key: 'sk-openai-msg', models: [TRANSLATED, FAILOVER] })
    const prices = { 'claude-3-5-haiku-latest': RATIO, [TRANSLATED]: RATIO, [FAILOVER]: RATIO }
    await fixture.setPrices(prices, { 'claude-3-5-haiku-latest': 1, [TRANSLATED]: 1, [FAILOVER]: 1 })
    await fixture.setOption('RetryTimes', 2)
    key = (await fixture.createToken()).key
    client = sdk({ apiKey: key })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('relays a message natively to an Anthropic channel, billed and logged with its input API', async () => {
    const { data, response } = await client.messages
      .create({ model: NATIVE, max_tokens: 100, system: 'Be brief', messages: hello })
      .withResponse()
    expect(data.type).toBe('message')
    expect(data.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(data.stop_reason).toBe('end_turn')
    expect(data.usage).toMatchObject({ input_tokens: 6, output_tokens: 5 })
    // The client's own body went upstream, with the channel's model and key.
    const upstream = lastCall('x-api-key', 'sk-ant-msg')
    expect(upstream.json).toEqual({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 100,
      system: 'Be brief',
      messages: hello,
    })
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01')
    const log = await fixture.logFor(response.headers.get('x-oneapi-request-id'))
    expect(log).toMatchObject({
      model_name: 'claude-3-5-haiku-latest',
      prompt_tokens: 6,
      completion_tokens: 5,
    })
    expect(log.quota).toBe(11 * RATIO)
    expect(log.content).toContain('input API: Anthropic Messages')
  })

  it('streams natively, and the SDK assembles the final message', async () => {
    const stream = client.messages.stream({ model: NATIVE, max_tokens: 100, messages: hello })
    const texts: string[] = []
    stream.on('text', (text) => texts.push(text))
    const message = await stream.finalMessage()
    expect(texts.join('')).toBe(GENERATED)
    expect(message.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(message.usage.output_tokens).toBe(5)
  })

  it('translates for an OpenAI-format channel, answer and usage in the Messages shape', async () => {
    const message = await client.messages.create({ model: TRANSLATED, max_tokens: 50, messages: hello })
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: GENERATED }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 4, output_tokens: 5 },
    })
    expect(lastCall('authorization', 'Bearer sk-openai-msg').json).toMatchObject({
      model: TRANSLATED,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'one two three four' }],
    })
  })

  it('streams from an OpenAI-format channel as Messages events', async () => {
    const stream = client.messages.stream({ model: TRANSLATED, max_tokens: 50, messages: hello })
    const message = await stream.finalMessage()
    expect(message.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(message.stop_reason).toBe('end_turn')
    expect(message.usage).toMatchObject({ input_tokens: 4, output_tokens: 5 })
  })

  it('returns tool use from either kind of channel, streamed too', async () => {
    for (const model of [NATIVE, TRANSLATED]) {
      const message = await client.messages.create({ model, max_tokens: 50, messages: hello, tools })
      expect(message.stop_reason).toBe('tool_use')
      expect(message.content.at(-1)).toMatchObject({
        type: 'tool_use',
        name: 'lookup',
        input: { mock: true },
      })
      const streamed = await client.messages
        .stream({ model, max_tokens: 50, messages: hello, tools })
        .finalMessage()
      expect(streamed.content.at(-1)).toMatchObject({
        type: 'tool_use',
        name: 'lookup',
        input: { mock: true },
      })
    }
  })

  it('takes the token as a Bearer header too', async () => {
    const message = await sdk({ authToken: key }).messages.create({
      model: TRANSLATED,
      max_tokens: 10,
      messages: hello,
    })
    expect(message.content[0]).toMatchObject({ text: GENERATED })
  })

  it('fails over from an Anthropic channel that is overloaded', async () => {
    fixture.mock.addFault({ match: { keyContains: 'sk-ant-msg' }, status: 529, times: 1 })
    const message = await client.messages.create({ model: FAILOVER, max_tokens: 10, messages: hello })
    expect(message.content[0]).toMatchObject({ text: GENERATED })
  })

  it("answers errors in Anthropic's shape, which the SDK reads as its own", async () => {
    const wrongKey = sdk({ apiKey: 'sk-not-a-token' })
    const refused = await wrongKey.messages
      .create({ model: NATIVE, max_tokens: 10, messages: hello })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError)
    expect((refused as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    })
    const invalid = await client.messages
      .create({ model: NATIVE, messages: hello } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(Anthropic.BadRequestError)
    expect((invalid as InstanceType<typeof Anthropic.APIError>).message).toContain('max_tokens')
  })

  it('counts the input tokens of a request without calling an upstream', async () => {
    const calls = fixture.mock.requests.length
    const counted = await client.messages.countTokens({ model: NATIVE, messages: hello, system: 'Be brief' })
    expect(counted.input_tokens).toBeGreaterThan(5)
    expect(fixture.mock.requests.length).toBe(calls)
  })
})
