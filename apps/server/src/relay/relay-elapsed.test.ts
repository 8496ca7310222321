import { sql } from 'kysely'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { holdTransaction } from '../testing/held-transaction.ts'
import { RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

// On PostgreSQL and MySQL a served request's answer ends once its charge and log are stored. The
// time that storing takes is the books', not the request's: elapsed time and latency leave it out.
// Listed as skipped without either database (an empty list would count as a failure).
const serverDialects = testDialects().filter((dialect) => dialect !== 'sqlite')
const listed = serverDialects.length > 0 ? serverDialects : (['postgres'] as const)

describe.skipIf(serverDialects.length === 0).each(listed)('elapsed time on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let channel: number

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.setPrices({ 'el-slow-books': 1 }, { 'el-slow-books': 1 })
    channel = await fixture.addChannel({ models: ['el-slow-books'], key: 'sk-el-slow-books' })
    client = fixture.openai((await fixture.createToken()).key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it("ends a request's elapsed time and latency with its answer, not with its charge", async () => {
    const durationSum = async () => {
      const metrics = await (await fetch(`${fixture.baseUrl}/metrics`)).text()
      const sum = new RegExp(
        `oneapi_relay_request_duration_seconds_sum\\{channel="${channel}",model="el-slow-books"[^}]*\\} ([0-9.e+-]+)`,
      ).exec(metrics)?.[1]
      return { metrics, sum: Number(sum ?? 0) }
    }
    // A first request warms the relay's paths, so a busy machine's cold start is not measured.
    await client.chat.completions.create({
      model: 'el-slow-books',
      messages: [{ role: 'user', content: 'warm' }],
    })
    await fixture.waitForLogs({ model: 'el-slow-books' }, 1)
    const before = (await durationSum()).sum
    // Another transaction holds the channel's row: the settlement, which adds what the channel
    // earned, waits for it; the answer ends only once its charge and log are stored.
    const holder = await holdTransaction(fixture.db, (trx) =>
      sql`select id from channels where id = ${channel} for update`.execute(trx),
    )
    const started = Date.now()
    const answer = client.chat.completions.create({
      model: 'el-slow-books',
      messages: [{ role: 'user', content: 'one two three' }],
    })
    // Counted in /metrics while its charge still waits (a database out of reach once left every
    // served request out of /metrics for as long as it lasted).
    const counted = new RegExp(
      `oneapi_relay_requests_total\\{channel="${channel}",model="el-slow-books",status="200"\\} 2`,
    )
    await expect.poll(async () => (await durationSum()).metrics, { timeout: 20_000 }).toMatch(counted)
    const waited = Date.now()
    setTimeout(holder.commit, 3_000)
    await answer
    await holder.finished
    expect(Date.now() - waited, 'the answer waited for its charge').toBeGreaterThanOrEqual(2_900)
    const log = (await fixture.waitForLogs({ model: 'el-slow-books' }, 2)).at(-1)
    // Before, both counted the 3 s the charge waited.
    expect(log?.elapsed_time).toBeLessThan(waited + 500 - started)
    expect((await durationSum()).sum - before).toBeLessThan((waited + 500 - started) / 1000)
  })
})
