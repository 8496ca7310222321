import { sql } from 'kysely'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { holdTransaction } from '../testing/held-transaction.ts'
import { RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

// On PostgreSQL and MySQL the relay waits for a served request's charge to be stored before it
// logs the request. The database's time is not the client's: the client had its answer before.
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
    // A first request warms the relay's paths, so a busy machine's cold start is not measured.
    await client.chat.completions.create({
      model: 'el-slow-books',
      messages: [{ role: 'user', content: 'warm' }],
    })
    await fixture.waitForLogs({ model: 'el-slow-books' }, 1)
    // Another transaction holds the channel's row for 5 s: the settlement, which adds what the
    // channel earned, waits for it after the client was answered.
    const holder = await holdTransaction(fixture.db, (trx) =>
      sql`select id from channels where id = ${channel} for update`.execute(trx),
    )
    const started = Date.now()
    await client.chat.completions.create({
      model: 'el-slow-books',
      messages: [{ role: 'user', content: 'one two three' }],
    })
    const answeredIn = Date.now() - started
    // Counted in /metrics already, though its charge still waits (a database out of reach left
    // every served request out of /metrics for as long as it lasted).
    const counted = new RegExp(
      `oneapi_relay_requests_total\\{channel="${channel}",model="el-slow-books",status="200"\\} 2`,
    )
    expect(await (await fetch(`${fixture.baseUrl}/metrics`)).text()).toMatch(counted)
    setTimeout(holder.commit, 5_000)
    const log = (await fixture.waitForLogs({ model: 'el-slow-books' }, 2)).at(-1)!
    await holder.finished
    expect(answeredIn).toBeLessThan(4_000)
    // Before, both counted the 5 s the charge waited.
    expect(log.elapsed_time).toBeLessThan(4_000)
    const metrics = await (await fetch(`${fixture.baseUrl}/metrics`)).text()
    const sum = new RegExp(
      `oneapi_relay_request_duration_seconds_sum\\{channel="${channel}",model="el-slow-books"[^}]*\\} ([0-9.e+-]+)`,
    ).exec(metrics)?.[1]
    // Two requests, neither counting the wait.
    expect(Number(sum)).toBeLessThan(4.5)
  })
})
