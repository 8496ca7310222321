import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LogType } from '@one-api/contracts'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture } from '../../testing/relay-fixture.ts'
import { type TestDialect, testDialects } from '../../testing/test-databases.ts'

/**
 * A settlement the database keeps refusing (here a trigger refuses every change of a channel's
 * used quota, which only settlements make): the served request's charge is kept in the spool, its
 * token is refused new requests with a 503 meanwhile, the operator is told, and once the database
 * takes charges again the kept one is applied with its log and the token is served again.
 */

const MODEL = 'gpt-4o-mini'

async function refuseCharges(fixture: RelayFixture, dialect: TestDialect): Promise<void> {
  const db = fixture.db
  if (dialect === 'sqlite') {
    await sql`create trigger refuse_charges before update of used_quota on channels
      begin select raise(abort, 'charges refused'); end`.execute(db)
  } else if (dialect === 'postgres') {
    await sql`create function refuse_charges() returns trigger language plpgsql as $$
      begin raise exception 'charges refused'; end $$`.execute(db)
    await sql`create trigger refuse_charges before update on channels for each row
      when (new.used_quota <> old.used_quota) execute function refuse_charges()`.execute(db)
  } else {
    await sql
      .raw(`create trigger refuse_charges before update on channels for each row
      begin if new.used_quota <> old.used_quota then
        signal sqlstate '45000' set message_text = 'charges refused'; end if; end`)
      .execute(db)
  }
}

async function acceptCharges(fixture: RelayFixture): Promise<void> {
  await sql`drop trigger refuse_charges${sql.raw(fixture.server.dialect === 'postgres' ? ' on channels' : '')}`.execute(
    fixture.db,
  )
}

describe.each(testDialects())('a charge the database keeps refusing, on %s', (dialect) => {
  let fixture: RelayFixture
  const spoolDirectory = mkdtempSync(join(tmpdir(), 'one-api-spool-'))

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect, {
      BILLING_SPOOL_DIR: spoolDirectory,
      BILLING_RETRY_TIMEOUT: '1',
    })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  const chat = (key: string) =>
    fetch(`${fixture.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'bill me' }] }),
    })

  it('keeps the charge, refuses the token with a 503 meanwhile, then applies it and serves again', async () => {
    const channelId = await fixture.addChannel({ models: [MODEL] })
    await fixture.setPrices({ [MODEL]: 1 }, { [MODEL]: 1 })
    const token = await fixture.createToken({ remain_quota: 1_000_000 })
    const told: string[] = []
    fixture.server.context.relay.notifyOperator = (title, content) => told.push(`${title}: ${content}`)
    const before = await fixture.balances(1, token.id)

    await refuseCharges(fixture, dialect)
    const served = await chat(token.key)
    expect(served.status).toBe(200)
    expect((await served.json()).choices[0].message.content).toBeTruthy()
    const servedId = served.headers.get(REQUEST_ID)!
    // Kept on disk, nothing applied yet, the operator told.
    const files = readdirSync(spoolDirectory)
    expect(files).toHaveLength(1)
    expect(readFileSync(join(spoolDirectory, files[0]!), 'utf8')).toContain(servedId)
    expect(told.join('\n')).toContain(servedId)
    expect((await fixture.balances(1, token.id)).user.used_quota).toBe(before.user.used_quota)

    // Fail closed: the token is refused, in OpenAI's error shape.
    const refused = await chat(token.key)
    expect(refused.status).toBe(503)
    const body = await refused.json()
    expect(body.error.code).toBe('billing_unavailable')
    expect(body.error.message).toContain('could not be stored')

    await acceptCharges(fixture)
    let status = 0
    const deadline = Date.now() + 20_000
    while (Date.now() < deadline) {
      const again = await chat(token.key)
      await again.text()
      status = again.status
      if (status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    expect(status).toBe(200)
    expect(readdirSync(spoolDirectory)).toEqual([])

    // Nothing lost: the kept charge is applied with its log, and the books agree.
    const log = await fixture.logFor(servedId)
    expect(log.quota).toBeGreaterThan(0)
    const after = await fixture.balances(1, token.id)
    const logs = await fixture.consumeLogs({ userId: 1 })
    expect(logs.every((row) => row.type === LogType.consume)).toBe(true)
    const logged = logs.reduce((sum, row) => sum + row.quota, 0)
    expect(logs).toHaveLength(2)
    expect(after.user.request_count - before.user.request_count).toBe(2)
    expect(after.user.used_quota - before.user.used_quota).toBe(logged)
    expect(after.token.used_quota).toBe(logged)
    expect(after.token.remain_quota + after.token.used_quota).toBe(1_000_000)
    expect(before.user.quota + before.user.used_quota).toBe(after.user.quota + after.user.used_quota)
    expect(await fixture.channelUsedQuota(channelId)).toBe(logged)
  }, 60_000)
})
