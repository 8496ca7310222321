/**
 * Zhipu channels (type 16) through the whole gateway with the official `openai` client: the mock
 * upstream checks the JWT as Zhipu does (signature, key id, expiry) and refuses a wrong secret;
 * chat, stream and embeddings are billed and logged from Zhipu's usage.
 */
import { ZHIPU_KEYS } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const ZHIPU = 16
const CHAT = 'glm-4-e2e'
const EMBEDDING = 'embedding-2-e2e'
const WRONG = 'glm-4-wrong-secret'
const IMAGE = 'cogview-3-e2e'
const RATIO = 5
const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'one two three' }] })
const [KEY] = ZHIPU_KEYS as [string]

describe.each(testDialects())('Zhipu channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const zhipuCalls = () => fixture.mock.requests.filter((call) => call.path.startsWith('/api/paas/v4/'))

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ type: ZHIPU, key: KEY, models: [CHAT, EMBEDDING, IMAGE] })
    const wrongSecret = `${KEY.split('.')[0]}.not-the-secret`
    await fixture.addChannel({ type: ZHIPU, key: wrongSecret, models: [WRONG] })
    const models = [CHAT, EMBEDDING, WRONG, IMAGE]
    await fixture.priceModels(models, RATIO)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers a chat through the v4 API with a signed token, and bills and logs its usage', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(CHAT)).withResponse()
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })
    const call = zhipuCalls().at(-1)!
    expect(call.path).toBe('/api/paas/v4/chat/completions')
    expect(call.headers.authorization).toMatch(/^ey[\w-]+\.ey[\w-]+\.[\w-]+$/)
    expect(call.headers.authorization).not.toContain('mock-zhipu-secret')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: CHAT, prompt_tokens: 3, completion_tokens: 5, quota: 8 * RATIO })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(8 * RATIO)
  })

  it('streams the answer with the usage the client asked for, and logs the stream', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(CHAT), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { text, usage } = await readChatStream(stream)
    expect(text).toBe('Hello from the mock upstream')
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 8 * RATIO })
  })

  it('serves embeddings from /api/paas/v4/embeddings, billed by their prompt', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBEDDING, input: 'one two three four' })
      .withResponse()
    expect(data.data[0]!.embedding.length).toBeGreaterThan(0)
    expect(zhipuCalls().at(-1)!.path).toBe('/api/paas/v4/embeddings')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: EMBEDDING, prompt_tokens: 4, quota: 4 * RATIO })
  })

  it('generates images through /api/paas/v4/images/generations, billed per image', async () => {
    const { data, response } = await client.images.generate({ model: IMAGE, prompt: 'a cat' }).withResponse()
    expect(data.data).toHaveLength(1)
    expect(zhipuCalls().at(-1)!.path).toBe('/api/paas/v4/images/generations')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log.model_name).toBe(IMAGE)
    expect(log.quota).toBeGreaterThan(0)
  })

  it('is refused by Zhipu with a token signed by the wrong secret, and bills nothing', async () => {
    const before = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(client.chat.completions.create(ask(WRONG)))
    expect(failure.status).toBe(503)
    expect(failure.error.code).toBe('channel_unavailable')
    expect(failure.error.message).not.toContain('not-the-secret')
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model: WRONG })).toEqual([])
  })
})
