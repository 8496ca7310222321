import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { type TestDialect, testDialects } from '../../testing/test-databases.ts'
import { createSignedInUser, readUser, signInAsRoot, type TestUser } from '../../testing/user-fixtures.ts'

/**
 * A write that changes a balance and records it is all or nothing: while the database refuses
 * every new log row (a trigger, as a full disk or a broken log table would), a top-up, a redeemed
 * code and a quota edit must leave the balance, the code and the logs as they were, so retrying
 * the call once the logs work again credits exactly once.
 */
const REFUSE_LOGS: Record<TestDialect, string[]> = {
  sqlite: [
    `create trigger refuse_logs before insert on logs begin select raise(abort, 'logs are refused'); end`,
  ],
  postgres: [
    `create function refuse_logs() returns trigger as $$ begin raise exception 'logs are refused'; end $$ language plpgsql`,
    'create trigger refuse_logs before insert on logs for each row execute function refuse_logs()',
  ],
  mysql: [
    `create trigger refuse_logs before insert on logs for each row signal sqlstate '45000' set message_text = 'logs are refused'`,
  ],
}
const ALLOW_LOGS: Record<TestDialect, string[]> = {
  sqlite: ['drop trigger refuse_logs'],
  postgres: ['drop trigger refuse_logs on logs', 'drop function refuse_logs()'],
  mysql: ['drop trigger refuse_logs'],
}

describe.each(testDialects())('balance changes and their logs on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let member: TestUser
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = await signInAsRoot(server)
    member = await createSignedInUser(server, 'atomicmember')
  })
  afterAll(async () => {
    await server?.close()
  })

  const run = async (statements: string[]) => {
    for (const statement of statements) await sql.raw(statement).execute(server.context.logDb)
  }
  const quotaOf = async () => Number((await readUser(server, member.id)).quota)
  const logCount = async () =>
    Number(
      (
        await server.context.logDb
          .selectFrom('logs')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    )

  /** Calls `attempt` while logs are refused (nothing may change), then again once they work. */
  const checkAllOrNothing = async (attempt: () => Promise<{ status: number }>, expectedQuota: number) => {
    const quota = await quotaOf()
    const logs = await logCount()
    await run(REFUSE_LOGS[dialect])
    try {
      expect((await attempt()).status).toBe(500)
    } finally {
      await run(ALLOW_LOGS[dialect])
    }
    expect(await quotaOf()).toBe(quota)
    expect(await logCount()).toBe(logs)
    const retried = (await attempt()) as { status: number; body?: { success?: boolean } }
    expect(retried.body?.success).toBe(true)
    expect(await quotaOf()).toBe(expectedQuota)
    expect(await logCount()).toBe(logs + 1)
  }

  it('credits a top-up together with its log, or not at all', async () => {
    const start = await quotaOf()
    await checkAllOrNothing(
      () => root.post('/api/topup', { user_id: member.id, quota: 1000, remark: 'invoice 7' }),
      start + 1000,
    )
  })

  it('redeems a code together with its log, or leaves the code unused', async () => {
    const [key] = (await root.post('/api/redemption/', { name: 'atomic', quota: 700, count: 1 })).body.data
    const start = await quotaOf()
    const codeStatus = async () =>
      (
        await server.context.db
          .selectFrom('redemptions')
          .select('status')
          .where('key', '=', key)
          .executeTakeFirstOrThrow()
      ).status
    const attempt = async () => {
      const response = await member.client.post('/api/user/topup', { key })
      if (response.status === 500) expect(await codeStatus()).toBe(1)
      return response
    }
    await checkAllOrNothing(attempt, start + 700)
    expect(await codeStatus()).toBe(3)
  })

  it("sets a user's quota together with its log, or not at all", async () => {
    const user = (await root.get(`/api/user/${member.id}`)).body.data
    await checkAllOrNothing(() => root.put('/api/user/', { ...user, quota: 123_456 }), 123_456)
  })
})
