/**
 * Every channel type of one-api's catalogue, as an administrator meets it: a channel created through
 * the management API with the body the console sends (the type's key format and config fields, the
 * base URL pointing at the fake upstream), tested as the channel list's Test button does, then used
 * for one chat completion with the official `openai` client through a token, with the bill and the
 * consume log checked. Types that cannot serve chat are asserted to fail with a clear message and
 * nothing billed. One gateway (SQLite) and one mock upstream for the whole file.
 */
import { CHANNEL_TYPES } from '@one-api/contracts/channel-types'
import {
  AIPROXY_LIBRARY_KEYS,
  BAIDU_KEYS,
  CLOUDFLARE_TOKENS,
  COZE_TOKENS,
  DEEPL_KEYS,
  MOCK_AWS_CREDENTIALS,
  SPARK_MOCK_KEY,
  TENCENT_KEYS,
  ZHIPU_KEYS,
} from '@one-api/mock-upstream'
import { testServiceAccount } from '@one-api/providers/testing/service-account'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'

const RATIO = 2
const [[AWS_KEY, AWS_SECRET]] = Object.entries(MOCK_AWS_CREDENTIALS) as [[string, string]]
const [[CLOUDFLARE_TOKEN, CLOUDFLARE_ACCOUNT]] = Object.entries(CLOUDFLARE_TOKENS) as [[string, string]]
const [[LIBRARY_KEY, LIBRARY_ID]] = Object.entries(AIPROXY_LIBRARY_KEYS) as [[string, string]]

interface ChannelSetup {
  key: string
  model: string
  config?: Record<string, unknown>
  /** The base URL relative to the mock's (e.g. '/v1' for OpenAI Compatible). */
  path?: string
}

/** Native types: the key format and config the console asks for, and a model the mock knows. */
const NATIVE: Record<number, (mockUrl: string) => ChannelSetup> = {
  14: () => ({ key: 'sk-ant-catalogue', model: 'claude-catalogue' }),
  15: () => ({ key: BAIDU_KEYS[0] as string, model: 'ERNIE-3.5-8K' }),
  16: () => ({ key: ZHIPU_KEYS[0] as string, model: 'glm-4-catalogue' }),
  17: () => ({ key: 'sk-dashscope-catalogue', model: 'qwen-catalogue', config: { plugin: '' } }),
  18: () => ({ key: SPARK_MOCK_KEY, model: 'Spark-Max' }),
  21: () => ({ key: LIBRARY_KEY, model: 'library-catalogue', config: { library_id: LIBRARY_ID } }),
  23: () => ({ key: TENCENT_KEYS[0] as string, model: 'hunyuan-catalogue' }),
  24: () => ({ key: 'AIza-catalogue', model: 'gemini-2.0-flash-catalogue' }),
  30: () => ({ key: 'ollama-catalogue', model: 'llama3.2' }),
  33: () => ({ key: `${AWS_KEY}|${AWS_SECRET}|us-east-1`, model: 'anthropic.claude-catalogue' }),
  34: () => ({
    key: COZE_TOKENS[0] as string,
    model: 'bot-7379462189365198898',
    config: { user_id: 'user-42' },
  }),
  35: () => ({ key: 'co-key-catalogue', model: 'command-r-catalogue' }),
  37: () => ({
    key: CLOUDFLARE_TOKEN,
    model: '@cf/meta/llama-3.1-8b-instruct',
    config: { user_id: CLOUDFLARE_ACCOUNT },
  }),
  38: () => ({ key: DEEPL_KEYS[0] as string, model: 'deepl-de' }),
  46: () => ({ key: 'r8_catalogue', model: 'meta/llama-catalogue' }),
}

/** Types that do not serve chat, and the message a client (and the channel test) gets instead. */
const NO_ADAPTOR = {
  status: 503,
  message: /type this gateway does not serve/,
  testMessage: /is not supported by this gateway yet/,
}
const REFUSED: Record<number, { status: number; message: RegExp; testMessage: RegExp }> = {
  11: {
    status: 410,
    message: /PaLM API was retired by Google/,
    testMessage: /PaLM API was retired by Google/,
  },
  // Proxy (43) is served only by the administrators' pass-through route (/v1/oneapi/proxy/:channelid/*),
  // never by chat completions.
  43: NO_ADAPTOR,
}

const ask = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'one two three four' }],
})
const modelFor = (id: number) => `catalogue-type-${id}`

describe('every channel type of the catalogue, created, tested and used as an administrator would (SQLite)', () => {
  let fixture: RelayFixture
  let client: OpenAI
  let userId: number
  let vertexAdc: string
  const channels = new Map<number, { id: number; model: string }>()

  beforeAll(async () => {
    fixture = await RelayFixture.start('sqlite')
    const account = testServiceAccount(`${fixture.mock.url}/token`)
    fixture.mock.vertex.addServiceAccount(account.email, account.publicKey)
    vertexAdc = account.adc
    const user = await fixture.createUser(`cat${Date.now() % 100_000}`, 10_000_000)
    userId = user.id
    const token = await fixture.createToken({ name: 'catalogue' }, user.client)
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  function setupFor(id: number): ChannelSetup {
    if (id === 42)
      return { key: `us-east5|catalogue-project|${vertexAdc}`, model: 'claude-3-5-haiku@20241022' }
    const native = NATIVE[id]
    if (native) return native(fixture.mock.url)
    if (id === 50) return { key: `sk-catalogue-${id}`, model: modelFor(id), path: '/v1' }
    return { key: `sk-catalogue-${id}`, model: modelFor(id) }
  }

  async function createChannel(id: number) {
    const setup = setupFor(id)
    const channel = await fixture.addChannel({
      name: `catalogue-${id}`,
      type: id,
      key: setup.key,
      models: [setup.model],
      base_url: `${fixture.mock.url}${setup.path ?? ''}`,
      config: JSON.stringify(setup.config ?? {}),
    })
    await fixture.setPrices({ [setup.model]: RATIO }, { [setup.model]: 1 })
    channels.set(id, { id: channel, model: setup.model })
    return { channel, model: setup.model }
  }

  const ids = CHANNEL_TYPES.map((info) => info.id).filter((id) => id !== 0)
  const serving = ids.filter((id) => REFUSED[id] === undefined)

  it.each(serving)(
    'type %i: the Test button succeeds, and a chat is answered, billed and logged',
    async (id) => {
      const { channel, model } = await createChannel(id)
      const test = await fixture.root.get(`/api/channel/test/${channel}`)
      expect(test.body, JSON.stringify(test.body)).toMatchObject({ success: true, model })
      // Seconds as the list shows them; a local mock may answer within the rounding, hence 0 allowed.
      expect(test.body.time).toBeGreaterThanOrEqual(0)
      const tested = await fixture.db
        .selectFrom('channels')
        .select(['test_time', 'response_time'])
        .where('id', '=', channel)
        .executeTakeFirstOrThrow()
      // What the channel list shows: when it was tested and how long the answer took (milliseconds).
      expect(Number(tested.test_time)).toBeGreaterThan(0)
      expect(Number(tested.response_time)).toBe(Math.round(test.body.time * 1000))
      const before = await fixture.balances(userId, (await tokenId()) as number)
      const { data, response } = await client.chat.completions.create(ask(model)).withResponse()
      expect(data.choices[0]!.message.content).toMatch(/\S/)
      const log = await fixture.logFor(response.headers.get(REQUEST_ID))
      expect(log).toMatchObject({ model_name: model, channel_id: channel, user_id: userId })
      expect(log!.quota).toBeGreaterThan(0)
      if (data.usage) expect(log!.prompt_tokens + log!.completion_tokens).toBe(data.usage.total_tokens)
      const after = await fixture.balances(userId, (await tokenId()) as number)
      expect(before.user.quota - after.user.quota).toBe(log!.quota)
      expect(after.user.used_quota - before.user.used_quota).toBe(log!.quota)
    },
  )

  it.each(Object.keys(REFUSED).map(Number))(
    'type %i: refused with its documented message, nothing billed',
    async (id) => {
      const expected = REFUSED[id]!
      const { channel, model } = await createChannel(id)
      const test = await fixture.root.get(`/api/channel/test/${channel}`)
      expect(test.body.success).toBe(false)
      expect(test.body.message).toMatch(expected.testMessage)
      const before = await fixture.balances(userId, (await tokenId()) as number)
      const failure = await relayFailure(client.chat.completions.create(ask(model)))
      expect(failure.status).toBe(expected.status)
      expect(failure.error.message).toMatch(expected.message)
      expect(await fixture.consumeLogs({ model })).toEqual([])
      expect(await fixture.balances(userId, (await tokenId()) as number)).toEqual(before)
    },
  )

  async function tokenId() {
    const row = await fixture.db
      .selectFrom('tokens')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    return row.id
  }

  it('covers every type id of the catalogue', () => {
    expect([...channels.keys()].sort((a, b) => a - b)).toEqual(ids)
  })
})
