/**
 * PaLM channels (type 11) through the whole gateway: Google retired the PaLM API, so a request
 * routed to such a channel is answered with an error that says so and names Gemini, without any
 * upstream call and without billing; a model that another channel also serves is served there.
 */
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const PALM = 11
const ONLY_PALM = 'chat-bison-001'
const SHARED = 'palm-or-backup'
const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'one two' }] })

describe.each(testDialects())('PaLM channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({
      type: PALM,
      key: 'AIza-palm-retired',
      models: [ONLY_PALM, SHARED],
      priority: 10,
    })
    await fixture.addChannel({ key: 'sk-palm-backup', models: [SHARED], priority: 0 })
    await fixture.setPrices({ [ONLY_PALM]: 1, [SHARED]: 1 }, { [ONLY_PALM]: 1, [SHARED]: 1 })
    token = await fixture.createToken({ remain_quota: 100_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it.each([false, true])(
    'refuses a request (stream: %s) saying the API was retired, bills nothing',
    async (stream) => {
      const before = await fixture.tokenQuota(token.id)
      const upstreamCalls = fixture.mock.requests.length
      const failure = await relayFailure(client.chat.completions.create({ ...ask(ONLY_PALM), stream }))
      expect(failure.status).toBe(410)
      expect(failure.error.code).toBe('channel_type_retired')
      expect(failure.error.message).toContain('PaLM API was retired by Google')
      expect(failure.error.message).toContain('Gemini (type 24)')
      expect(failure.error.message).not.toContain('AIza')
      expect(fixture.mock.requests.length).toBe(upstreamCalls)
      expect(await fixture.consumeLogs({ model: ONLY_PALM })).toEqual([])
      expect((await fixture.tokenQuota(token.id)).remain_quota).toBe(before.remain_quota)
    },
  )

  it('serves a model another channel also has from that channel (on a retry), billed and logged there', async () => {
    await fixture.setOption('RetryTimes', 1)
    const completion = await client.chat.completions.create(ask(SHARED))
    expect(completion.choices[0]!.message.content).toBe('Hello from the mock upstream')
    const [log] = await fixture.waitForLogs({ model: SHARED }, 1)
    expect(log).toMatchObject({ prompt_tokens: 2, completion_tokens: 5, quota: 7 })
    // The only upstream call went to the backup.
    expect(fixture.mock.requests).toHaveLength(1)
    expect(fixture.requestsFor('sk-palm-backup')).toHaveLength(1)
  })
})
