/**
 * MiniMax channels (type 27) whose upstream answers a failure with HTTP 200 and a failing
 * `base_resp`, through the whole gateway with the official `openai` client: an auth failure
 * disables the channel, a rate limit moves to the next channel, a content refusal comes back as
 * 400; none of them is billed or logged as consumption.
 */
import { ChannelStatus } from '@one-api/contracts'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../testing/eventually.ts'
import { RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const MINIMAX = 27
const messages = [{ role: 'user' as const, content: 'one two three' }]
const ask = (model: string) => ({ model, messages })
const askMaybeStreamed = (model: string, stream: boolean) => ({ model, messages, stream })

/** MiniMax's documented failure answer: HTTP 200, no choices, the status in base_resp. */
const failure = (code: number, message: string) => ({
  id: '02b5d9a1c3e40f6a7b8c9d0e1f2a3b4c',
  choices: null,
  created: 1729070478,
  model: 'MiniMax-Text-01',
  object: 'chat.completion',
  usage: { total_tokens: 0, total_characters: 0 },
  base_resp: { status_code: code, status_msg: message },
})

describe.each(testDialects())('MiniMax errors inside HTTP 200 through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  const status = async (id: number) =>
    (await fixture.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow())
      .status
  /** A primary and a backup MiniMax channel for `model`; a fault can match either key. */
  async function pair(model: string) {
    const primaryKey = `sk-${model}-primary`
    const backupKey = `sk-${model}-backup`
    const primary = await fixture.addChannel({
      type: MINIMAX,
      key: primaryKey,
      models: [model],
      priority: 10,
    })
    const backup = await fixture.addChannel({ type: MINIMAX, key: backupKey, models: [model] })
    return { primary, backup, primaryKey, backupKey }
  }
  /** The token's balance is unchanged and no consume log names the model. */
  async function expectNothingBilled(model: string, before: { remain_quota: unknown }) {
    expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    expect(await fixture.consumeLogs({ model })).toEqual([])
  }

  beforeAll(async () => {
    // One refusal of the credentials disables the channel (the default waits for three).
    fixture = await RelayFixture.start(dialect, { CHANNEL_DISABLE_FAILURE_COUNT: '1' })
    await fixture.setOption('AutomaticDisableChannelEnabled', 'true')
    await fixture.setOption('RetryTimes', 2)
    const models = [
      'mm-ok',
      'mm-rate',
      'mm-stream-refused',
      ...['auth', 'refused'].flatMap((name) => [`mm-${name}-false`, `mm-${name}-true`]),
    ]
    await fixture.setPrices(Object.fromEntries(models.map((model) => [model, 1])))
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('serves a chat through /v1/text/chatcompletion_v2 and bills it', async () => {
    await fixture.addChannel({ type: MINIMAX, key: 'sk-mm-ok', models: ['mm-ok'] })
    const completion = await client.chat.completions.create(ask('mm-ok'))
    expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(fixture.requestsFor('sk-mm-ok').at(-1)!.path).toBe('/v1/text/chatcompletion_v2')
    expect(await fixture.waitForLogs({ model: 'mm-ok' }, 1)).toHaveLength(1)
  })

  it.each([false, true])(
    'disables the channel on error 1004 (stream %s), answering 503 unbilled',
    async (stream) => {
      const model = `mm-auth-${stream}`
      const key = `sk-${model}`
      const channel = await fixture.addChannel({ type: MINIMAX, key, models: [model] })
      fixture.mock.addFault({ match: { keyContains: key }, status: 200, body: failure(1004, 'login fail') })
      const before = await fixture.tokenQuota(token.id)
      const answer = await relayFailure(client.chat.completions.create(askMaybeStreamed(model, stream)))
      expect(answer.status).toBe(503)
      expect(answer.error.code).toBe('channel_unavailable')
      // The monitor disables the channel just after the answer.
      await eventually(async () => (await status(channel)) === ChannelStatus.autoDisabled)
      await expectNothingBilled(model, before)
    },
  )

  it('moves to the next channel on a rate limit (1002), keeping the first enabled', async () => {
    const { primary, backup, primaryKey, backupKey } = await pair('mm-rate')
    fixture.mock.addFault({
      match: { keyContains: primaryKey },
      status: 200,
      body: failure(1002, 'rate limit exceeded(RPM)'),
    })
    const completion = await client.chat.completions.create(ask('mm-rate'))
    expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect([fixture.requestsFor(primaryKey).length, fixture.requestsFor(backupKey).length]).toEqual([1, 1])
    expect(await status(primary)).toBe(ChannelStatus.enabled)
    const logs = await fixture.waitForLogs({ model: 'mm-rate' }, 1)
    expect(logs.map((log) => log.channel_id)).toEqual([backup])
  })

  it.each([false, true])(
    'returns a content refusal (1026) as 400 without trying another channel (stream %s)',
    async (stream) => {
      const model = `mm-refused-${stream}`
      const { primary, primaryKey, backupKey } = await pair(model)
      fixture.mock.addFault({
        match: { keyContains: primaryKey },
        status: 200,
        body: failure(1026, 'input new_sensitive'),
      })
      const before = await fixture.tokenQuota(token.id)
      const answer = await relayFailure(client.chat.completions.create(askMaybeStreamed(model, stream)))
      expect(answer.status).toBe(400)
      expect(answer.error).toMatchObject({ code: 'content_policy_violation', type: 'invalid_request_error' })
      expect(answer.error.message).toContain('MiniMax error 1026: input new_sensitive')
      expect(fixture.requestsFor(backupKey)).toHaveLength(0)
      expect(await status(primary)).toBe(ChannelStatus.enabled)
      await expectNothingBilled(model, before)
    },
  )

  it('returns a refusal sent as a stream event (1026) as 400, unbilled, the event not passed on', async () => {
    const model = 'mm-stream-refused'
    const { primary, primaryKey, backupKey } = await pair(model)
    const refusal = { ...failure(1026, 'input new_sensitive'), object: 'chat.completion.chunk' }
    fixture.mock.addFault({ match: { keyContains: primaryKey }, events: [refusal] })
    const before = await fixture.tokenQuota(token.id)
    const answer = await relayFailure(client.chat.completions.create(askMaybeStreamed(model, true)))
    expect(answer.status).toBe(400)
    expect(answer.error).toMatchObject({ code: 'content_policy_violation' })
    expect(answer.error.message).toContain('MiniMax error 1026: input new_sensitive')
    expect(fixture.requestsFor(backupKey)).toHaveLength(0)
    expect(await status(primary)).toBe(ChannelStatus.enabled)
    await expectNothingBilled(model, before)
  })
})
