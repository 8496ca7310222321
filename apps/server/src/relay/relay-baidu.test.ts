/**
 * Baidu Qianfan v1 channels (type 15) through the whole gateway with the official `openai` client:
 * the channel's `APIKey|SecretKey` exchanged at the mock's OAuth endpoint for an access token,
 * cached and renewed once when Baidu stops taking it (error 110); chat, stream and embeddings in
 * Baidu's formats, billed and logged from its usage; a wrong SecretKey refused without a bill.
 */
import { BAIDU_KEYS, revokeBaiduTokens } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const BAIDU = 15
const CHAT = 'ERNIE-3.5-8K'
const EMBEDDING = 'Embedding-V1'
const WRONG = 'ERNIE-Speed-8K'
const RATIO = 4
const [KEY] = BAIDU_KEYS as [string]
const ask = (model: string) => ({
  model,
  messages: [
    { role: 'system' as const, content: 'be brief' },
    { role: 'user' as const, content: 'one two three' },
  ],
})

describe.each(testDialects())('Baidu Qianfan v1 channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const exchanges = () =>
    fixture.mock.requests.filter((call) => call.path.startsWith('/oauth/2.0/token')).length
  const workshopCalls = () => fixture.mock.requests.filter((call) => call.path.includes('/wenxinworkshop/'))

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ type: BAIDU, key: KEY, models: [CHAT, EMBEDDING] })
    await fixture.addChannel({ type: BAIDU, key: `${KEY.split('|')[0]}|not-the-secret`, models: [WRONG] })
    const models = [CHAT, EMBEDDING, WRONG]
    await fixture.priceModels(models, RATIO)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('exchanges the key for a token once, then answers chats with it, billed and logged', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(CHAT)).withResponse()
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 })
    const call = workshopCalls().at(-1)!
    expect(call.path).toMatch(
      /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/completions\?access_token=24\./,
    )
    expect(call.json).toMatchObject({
      system: 'be brief',
      messages: [{ role: 'user', content: 'one two three' }],
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: CHAT, prompt_tokens: 5, completion_tokens: 5, quota: 10 * RATIO })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(10 * RATIO)
    await client.chat.completions.create(ask(CHAT))
    expect(exchanges()).toBe(1)
  })

  it('streams the answer until is_end, with the usage the client asked for, and logs it', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(CHAT), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { text, usage } = await readChatStream(stream)
    expect(text).toBe('Hello from the mock upstream')
    expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 10 * RATIO })
  })

  it('serves embeddings from the embedding-v1 endpoint', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBEDDING, input: ['one two', 'three'] })
      .withResponse()
    expect(data.data).toHaveLength(2)
    expect(workshopCalls().at(-1)!.path).toContain('/wenxinworkshop/embeddings/embedding-v1?access_token=')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ prompt_tokens: 3, quota: 3 * RATIO })
  })

  it('gets a new token once when Baidu stops taking the cached one (error 110), and answers', async () => {
    const before = exchanges()
    revokeBaiduTokens()
    const completion = await client.chat.completions.create(ask(CHAT))
    expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(exchanges()).toBe(before + 1)
  })

  it('is refused at the token exchange with a wrong SecretKey, calls no model and bills nothing', async () => {
    const before = await fixture.tokenQuota(token.id)
    const calls = workshopCalls().length
    const failure = await relayFailure(client.chat.completions.create(ask(WRONG)))
    expect(failure.status).toBe(503)
    expect(failure.error.message).not.toContain('not-the-secret')
    expect(workshopCalls().length).toBe(calls)
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model: WRONG })).toEqual([])
  })
})
