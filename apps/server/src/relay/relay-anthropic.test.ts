/**
 * Anthropic channels (type 14) through the whole gateway, driven by the official `openai` client:
 * the mock upstream checks Anthropic's headers, the answers are OpenAI's, the bill prices the
 * prompt cache as Anthropic does, and failures follow the retry and auto-disable policy.
 */
import { ChannelType } from '@one-api/contracts/channel-types'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const PLAIN = 'claude-e2e'
// Two of the four prompt words read from the cache, one written to it.
const CACHED = 'claude-e2e-cache+cached-tokens=2+cache-write-tokens=1'
const FAILING = 'claude-e2e-failover'
const BAD_KEY = 'claude-e2e-bad-key'
const RATIO = 10
const ask = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'one two three four' }],
})

describe.each(testDialects())('Anthropic channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const upstreamCalls = (key: string) =>
    fixture.mock.requests.filter((call) => call.headers['x-api-key'] === key)

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect, { CHANNEL_DISABLE_FAILURE_COUNT: '1' })
    await fixture.addChannel({ type: ChannelType.anthropic, key: 'sk-ant-e2e', models: [PLAIN, CACHED] })
    await fixture.addChannel({
      type: ChannelType.anthropic,
      key: 'sk-ant-bad',
      models: [FAILING],
      priority: 10,
    })
    await fixture.addChannel({ key: 'sk-openai-backup', models: [FAILING, BAD_KEY], priority: 0 })
    // A channel of its own: the failures above cool the other one down for a while.
    await fixture.addChannel({
      type: ChannelType.anthropic,
      key: 'sk-ant-refused',
      models: [BAD_KEY],
      priority: 10,
    })
    const prices = { [PLAIN]: RATIO, [CACHED]: RATIO, [FAILING]: RATIO, [BAD_KEY]: RATIO }
    await fixture.setPrices(prices, { [PLAIN]: 1, [CACHED]: 1, [FAILING]: 1, [BAD_KEY]: 1 })
    await fixture.setOption('AutomaticDisableChannelEnabled', true)
    await fixture.setOption('RetryTimes', 2)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers in OpenAI format, calls the upstream as Anthropic wants it, and bills and logs the usage', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(PLAIN)).withResponse()
    expect(data.object).toBe('chat.completion')
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.choices[0]!.finish_reason).toBe('stop')
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    const upstream = upstreamCalls('sk-ant-e2e').at(-1)!
    expect(upstream.path).toBe('/v1/messages')
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01')
    expect(upstream.headers.authorization).toBeUndefined()
    expect(upstream.json).toMatchObject({ model: PLAIN, max_tokens: 4096 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: PLAIN, prompt_tokens: 4, completion_tokens: 5, quota: 9 * RATIO })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(9 * RATIO)
  })

  it('prices cache reads at a tenth and cache writes at 1.25 times the input price', async () => {
    const { data, response } = await client.chat.completions.create(ask(CACHED)).withResponse()
    expect(data.usage?.prompt_tokens_details?.cached_tokens).toBe(2)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    // 1 uncached + 2 read × 0.1 + 1 written × 1.25 + 5 output, at ratio 10.
    expect(log.quota).toBe(Math.ceil((1 + 0.2 + 1.25 + 5) * RATIO))
    expect(log.prompt_tokens).toBe(4)
  })

  it('streams text with the usage chunk the client asked for, and logs the stream', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(PLAIN), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { pieces, usage } = await readChatStream(stream)
    expect(pieces.join('')).toBe('Hello from the mock upstream')
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('translates tools, and streams the tool call back as OpenAI tool call deltas', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
    ]
    const stream = await client.chat.completions.create({ ...ask(PLAIN), tools, stream: true })
    const { toolName: name, toolArguments: args, finish } = await readChatStream(stream)
    expect({ name, args: JSON.parse(args), finish }).toEqual({
      name: 'lookup',
      args: { mock: true },
      finish: 'tool_calls',
    })
    expect(upstreamCalls('sk-ant-e2e').at(-1)!.json).toMatchObject({
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} } }],
    })
  })

  it('refuses an image URL on an internal address without calling the upstream', async () => {
    const calls = upstreamCalls('sk-ant-e2e').length
    const failure = await relayFailure(
      client.chat.completions.create({
        model: PLAIN,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: `${fixture.mock.url}/cat.png` } }],
          },
        ],
      }),
    )
    expect(failure.status).toBe(400)
    expect(failure.error.message).toContain('internal address')
    expect(upstreamCalls('sk-ant-e2e').length).toBe(calls)
  })

  it('returns a 400 of the upstream as it is, without trying another channel', async () => {
    fixture.mock.addFault({ match: { keyContains: 'sk-ant-bad' }, status: 400, times: 1 })
    const backupCalls = fixture.requestsFor('sk-openai-backup').length
    const failure = await relayFailure(client.chat.completions.create(ask(FAILING)))
    expect(failure.status).toBe(400)
    expect(failure.error.type).toBe('invalid_request_error')
    expect(fixture.requestsFor('sk-openai-backup').length).toBe(backupCalls)
  })

  it('fails over on 429 and 5xx (Anthropic 529 included)', async () => {
    for (const status of [429, 500, 529]) {
      fixture.mock.addFault({ match: { keyContains: 'sk-ant-bad' }, status, times: 1 })
      const completion = await client.chat.completions.create(ask(FAILING))
      expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    }
    expect(fixture.requestsFor('sk-openai-backup').length).toBeGreaterThanOrEqual(3)
  })

  it('disables an Anthropic channel whose key is refused, and serves from the next one', async () => {
    fixture.mock.addFault({ match: { keyContains: 'sk-ant-refused' }, status: 401 })
    const completion = await client.chat.completions.create(ask(BAD_KEY))
    expect(upstreamCalls('sk-ant-refused')).toHaveLength(1)
    expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    await fixture.waitUntilAutoDisabled('key', 'sk-ant-refused')
    fixture.mock.clearFaults()
  })
})
