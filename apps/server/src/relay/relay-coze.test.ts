/**
 * Coze channels (type 34) through the whole gateway with the official `openai` client: bots as
 * models, the user id from the channel's config, the v3 event stream turned into OpenAI's answer
 * and stream, billed and logged from Coze's usage; the mock refuses a wrong token as Coze does.
 */
import { COZE_TOKENS } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const COZE = 34
const BOT = 'bot-7379462189365198898'
const BARE = '7379462189365198899'
const WRONG = 'bot-wrong-token'
const RATIO = 2
const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'what day is it' }] })

describe.each(testDialects())('Coze channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const cozeCalls = () => fixture.mock.requests.filter((call) => call.path === '/v3/chat')

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    const config = JSON.stringify({ user_id: 'user-4242' })
    await fixture.addChannel({ type: COZE, key: COZE_TOKENS[0], models: [BOT, BARE], config })
    await fixture.addChannel({ type: COZE, key: 'pat_not_a_token', models: [WRONG], config })
    const models = [BOT, BARE, WRONG]
    await fixture.priceModels(models, RATIO)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('asks the bot named by the model for the configured user, and bills and logs the usage', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(BOT)).withResponse()
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    expect(cozeCalls().at(-1)!.json).toMatchObject({
      bot_id: '7379462189365198898',
      user_id: 'user-4242',
      stream: true,
      additional_messages: [
        { role: 'user', type: 'question', content: 'what day is it', content_type: 'text' },
      ],
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: BOT, prompt_tokens: 4, completion_tokens: 5, quota: 9 * RATIO })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(9 * RATIO)
  })

  it('streams the answer deltas, ends at chat.completed with the usage asked for, and logs the stream', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(BOT), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { text, usage } = await readChatStream(stream)
    expect(text).toBe('Hello from the mock upstream')
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('takes a model without the bot- prefix as the bot id itself, as one-api does', async () => {
    const completion = await client.chat.completions.create(ask(BARE))
    expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(cozeCalls().at(-1)!.json).toMatchObject({ bot_id: BARE })
  })

  it('is refused by Coze with a wrong token, and bills nothing', async () => {
    const before = await fixture.tokenQuota(token.id)
    const failure = await relayFailure(client.chat.completions.create(ask(WRONG)))
    expect(failure.status).toBe(503)
    expect(failure.error.code).toBe('channel_unavailable')
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model: WRONG })).toEqual([])
  })
})
