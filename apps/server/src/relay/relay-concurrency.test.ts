import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { startTestApp } from '../testing/test-app.ts'
import { testDialects } from '../testing/test-databases.ts'

const MODEL = 'race-model'
const PARALLEL = 200
const AFFORDABLE = 20
const USER_QUOTA = 10_000_000
// The mock answers 1 prompt token ("hi") and max_tokens = 5 completion tokens: 6 quota at ratio 1.
const CHARGE = 6

describe.each(testDialects())('relay under concurrency on %s', (dialect) => {
  let fixture: RelayFixture
  let reservation: number

  const ask = (client: OpenAI) =>
    client.chat.completions
      .create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse()

  /**
   * Fires every request at once, spread over the clients in turn; returns the request ids of the
   * served ones and the refusals.
   */
  async function burst(...clients: OpenAI[]) {
    const results = await Promise.allSettled(
      Array.from({ length: PARALLEL }, (_, index) => ask(clients[index % clients.length]!)),
    )
    const served: string[] = []
    const refused: unknown[] = []
    const servedBy = clients.map(() => 0)
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') {
        served.push(result.value.response.headers.get(REQUEST_ID) ?? '')
        servedBy[index % clients.length]! += 1
      } else {
        refused.push(result.reason)
      }
    })
    return { served, refused, servedBy }
  }

  function expectRefusedForQuota(refused: unknown[], code: string) {
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(OpenAI.APIError)
      expect((reason as InstanceType<typeof OpenAI.APIError>).status).toBe(403)
      expect((reason as InstanceType<typeof OpenAI.APIError>).code).toBe(code)
    }
  }

  async function expectOneLogPerServedRequest(userId: number, served: string[]) {
    const logs = await fixture.consumeLogs({ userId })
    expect(logs.map((log) => log.request_id).sort()).toEqual([...served].sort())
    expect(new Set(served).size).toBe(served.length)
    expect(logs.every((log) => log.quota === CHARGE)).toBe(true)
  }

  /**
   * What a burst against a limited token must leave: every refusal happened while what was
   * reserved or spent left less than one reservation, so at least AFFORDABLE requests were served,
   * never more than the quota pays for, and each served one is billed and logged exactly once.
   */
  async function expectTokenNeverOverspent(
    userId: number,
    tokenId: number,
    tokenQuota: number,
    { served, refused }: { served: string[]; refused: unknown[] },
  ) {
    expect(served.length).toBeGreaterThanOrEqual(AFFORDABLE)
    expect(served.length * CHARGE).toBeLessThanOrEqual(tokenQuota)
    expect(refused.length).toBe(PARALLEL - served.length)
    expectRefusedForQuota(refused, 'insufficient_token_quota')
    // Served requests are settled just after their answer; wait for the last of them.
    await fixture.waitForLogs({ userId }, served.length)
    const spent = served.length * CHARGE
    expect(await fixture.balances(userId, tokenId)).toEqual({
      user: { quota: USER_QUOTA - spent, used_quota: spent, request_count: served.length },
      token: { remain_quota: tokenQuota - spent, used_quota: spent },
    })
    await expectOneLogPerServedRequest(userId, served)
  }

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.setPrices({ [MODEL]: 1 }, { [MODEL]: 1 })
    // No cushion: the reservation is exactly the worst case of the request (prompt estimate + max_tokens).
    await fixture.setOption('PreConsumedQuota', 0)
    await fixture.addChannel({ models: [MODEL] })
    // Learn the reservation of one request from a refusal of a token with no quota at all.
    const empty = await fixture.createToken({ remain_quota: 0 })
    const refusal = await relayFailure(ask(fixture.openai(empty.key)))
    reservation = Number(/needs (\d+)/.exec(refusal.error.message)?.[1])
    expect(reservation).toBeGreaterThanOrEqual(CHARGE)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('never overspends a limited token, and bills every served request exactly once', async () => {
    const user = await fixture.createUser('racer', USER_QUOTA)
    const tokenQuota = AFFORDABLE * reservation
    const token = await fixture.createToken({ remain_quota: tokenQuota }, user.client)
    const upstreamBefore = fixture.mock.requests.length
    const outcome = await burst(fixture.openai(token.key))
    // Refused requests never reached the upstream.
    expect(fixture.mock.requests.length - upstreamBefore).toBe(outcome.served.length)
    await expectTokenNeverOverspent(user.id, token.id, tokenQuota, outcome)
  }, 60_000)

  it("never overspends a user's own quota through an unlimited token", async () => {
    const userQuota = AFFORDABLE * reservation
    const user = await fixture.createUser('racer-two', userQuota)
    const token = await fixture.createToken({ unlimited_quota: true }, user.client)
    const { served, refused } = await burst(fixture.openai(token.key))

    expect(served.length).toBeGreaterThanOrEqual(AFFORDABLE)
    expect(served.length * CHARGE).toBeLessThanOrEqual(userQuota)
    expectRefusedForQuota(refused, 'insufficient_user_quota')
    // Served requests are settled just after their answer; wait for the last of them.
    await fixture.waitForLogs({ userId: user.id }, served.length)
    const spent = served.length * CHARGE
    const balances = await fixture.balances(user.id, token.id)
    expect(balances.user).toEqual({
      quota: userQuota - spent,
      used_quota: spent,
      request_count: served.length,
    })
    expect(balances.token.used_quota).toBe(spent)
    await expectOneLogPerServedRequest(user.id, served)
  }, 60_000)

  it('never overspends a token served by two gateway nodes sharing the database', async () => {
    // A second node: its own token cache, ledger and database connections, the same database.
    const second = await startTestApp(dialect, {}, { shareDatabaseWith: fixture.server })
    try {
      const user = await fixture.createUser('racer-three', USER_QUOTA)
      const tokenQuota = AFFORDABLE * reservation
      const token = await fixture.createToken({ remain_quota: tokenQuota }, user.client)
      const onSecond = new OpenAI({ apiKey: token.key, baseURL: `${second.baseUrl}/v1`, maxRetries: 0 })
      const outcome = await burst(fixture.openai(token.key), onSecond)
      expect(
        outcome.servedBy.every((count) => count > 0),
        `served by each node: ${outcome.servedBy}`,
      ).toBe(true)
      await expectTokenNeverOverspent(user.id, token.id, tokenQuota, outcome)
    } finally {
      await second.close()
    }
  }, 60_000)
})
