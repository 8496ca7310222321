/**
 * Cloudflare Workers AI channels (type 37) through the whole gateway with the official `openai`
 * client: the account id from the channel's config in the path, the API token checked by the mock
 * as Cloudflare does (a token of another account refused); chat, stream and embeddings billed and
 * logged.
 */
import { CLOUDFLARE_TOKENS } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const CLOUDFLARE = 37
const CHAT = '@cf/meta/llama-3.1-8b-instruct'
const EMBEDDING = '@cf/baai/bge-base-en-v1.5'
const WRONG = '@cf/meta/llama-wrong-account'
const RATIO = 2
const [[TOKEN, ACCOUNT]] = Object.entries(CLOUDFLARE_TOKENS) as [[string, string]]
const ask = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'make robot noises' }],
})

describe.each(testDialects())('Cloudflare Workers AI channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const accountCalls = () =>
    fixture.mock.requests.filter((call) => call.path.startsWith('/client/v4/accounts/'))

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    const config = JSON.stringify({ user_id: ACCOUNT })
    await fixture.addChannel({ type: CLOUDFLARE, key: TOKEN, models: [CHAT, EMBEDDING], config })
    const otherAccount = JSON.stringify({ user_id: 'someone-elses-account' })
    await fixture.addChannel({ type: CLOUDFLARE, key: TOKEN, models: [WRONG], config: otherAccount })
    const models = [CHAT, EMBEDDING, WRONG]
    await fixture.priceModels(models, RATIO)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers a chat from the account endpoint, and bills and logs its usage', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(CHAT)).withResponse()
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(accountCalls().at(-1)!.path).toBe(`/client/v4/accounts/${ACCOUNT}/ai/v1/chat/completions`)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: CHAT, prompt_tokens: 3, completion_tokens: 5, quota: 8 * RATIO })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(8 * RATIO)
  })

  it('streams the answer, billed from the usage chunk and logged', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(CHAT), stream: true })
      .withResponse()
    const { text } = await readChatStream(stream)
    expect(text).toBe('Hello from the mock upstream')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, prompt_tokens: 3, completion_tokens: 5, quota: 8 * RATIO })
  })

  it('serves embeddings from the account endpoint', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBEDDING, input: 'one two' })
      .withResponse()
    expect(data.data[0]!.embedding.length).toBeGreaterThan(0)
    expect(accountCalls().at(-1)!.path).toBe(`/client/v4/accounts/${ACCOUNT}/ai/v1/embeddings`)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ prompt_tokens: 2, quota: 2 * RATIO })
  })

  it('is refused by Cloudflare for an account the token does not belong to, and bills nothing', async () => {
    const before = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(client.chat.completions.create(ask(WRONG)))
    expect(failure.status).toBe(503)
    expect(failure.error.code).toBe('channel_unavailable')
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model: WRONG })).toEqual([])
  })
})
