import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'
import type { LogSchema } from '../schema.ts'
import { SECONDS_PER_DAY } from './log-days.ts'
import { checkLogTotals } from './log-totals-check.ts'
import { insertLogs, systemLog } from './logs-repository.ts'
import { addUsage, withUsage } from './usage-rollups.ts'

const DAY = SECONDS_PER_DAY
const FIRST_DAY = Math.floor(1_700_000_000 / DAY) * DAY

/** A consume log of `quota` on day `day` (0 = FIRST_DAY), for `model`. */
function consumeLog(day: number, quota: number, model = 'fp-model') {
  return systemLog({
    user_id: 1,
    username: 'root',
    type: 2,
    content: 'fingerprint test',
    model_name: model,
    channel_id: 7,
    created_at: FIRST_DAY + day * DAY + 3600,
    quota,
    prompt_tokens: quota / 10,
    completion_tokens: quota / 20,
  })
}

/** Inserts consume logs as one-api does: the row only, no totals. */
async function insertBehindTheBack(db: Kysely<unknown>, day: number, quota: number) {
  const created = FIRST_DAY + day * DAY + 7200
  await sql`insert into logs (user_id, created_at, type, content, username, token_name, model_name,
      quota, prompt_tokens, completion_tokens, channel_id)
    values (1, ${created}, 2, 'written by one-api', 'root', '', 'fp-model', ${quota}, ${quota / 10},
      ${quota / 20}, 7)`.execute(db)
}

describe.each(testDialects())('log totals checked against the logs at start on %s', (dialect) => {
  let first: TestApp
  let restarted: TestApp | undefined
  beforeAll(async () => {
    first = await startTestApp(dialect)
  })
  afterAll(async () => {
    await restarted?.close()
    await first?.close()
  })

  /** What the log page's stat says for [start, end] on `server`. */
  async function stat(server: TestApp, start = 0, end = 0) {
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    const query = `type=2&start_timestamp=${start}&end_timestamp=${end}`
    return (await root.get(`/api/log/stat?${query}`)).body.data as { quota: number; token: number }
  }

  /** The usage of user 1 per day, from the dashboards' table. */
  async function usageByDay(db: Kysely<LogSchema>) {
    const rows = await withUsage(db)
      .selectFrom('usage_daily_users')
      .select(['day', 'request_count', 'quota', 'error_count'])
      .where('user_id', '=', 1)
      .orderBy('day')
      .execute()
    return rows.map((row) => ({
      day: Number(row.day) - FIRST_DAY / DAY,
      requests: Number(row.request_count),
      quota: Number(row.quota),
      errors: Number(row.error_count),
    }))
  }

  it('rebuilds the totals when logs were written or deleted behind its back', async () => {
    const db = first.context.logDb
    // Through the gateway: 100 + 200 on day 0, 400 on day 1, 800 on day 2.
    await insertLogs(db, [consumeLog(0, 100), consumeLog(0, 200), consumeLog(1, 400), consumeLog(2, 800)])
    // Three failed attempts on day 1, which no log records (they must survive a rebuild).
    await addUsage(db, [
      {
        day: FIRST_DAY / DAY + 1,
        user_id: 1,
        model_name: 'fp-model',
        channel_id: 7,
        request_count: 0,
        quota: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        error_count: 3,
      },
    ])
    expect(await stat(first)).toEqual({ quota: 1500, token: 225 })

    // Behind its back: one-api writes 1000 on day 1 and 2000 on day 3; someone deletes the 800.
    const raw = db as unknown as Kysely<unknown>
    await insertBehindTheBack(raw, 1, 1000)
    await insertBehindTheBack(raw, 3, 2000)
    await sql`delete from logs where quota = 800`.execute(raw)
    // The totals, kept by the gateway's own writes, no longer match: 1500 still.
    expect(await stat(first)).toEqual({ quota: 1500, token: 225 })

    // A restart checks them and rebuilds: every range is right again.
    restarted = await startTestApp(dialect, {}, { shareDatabaseWith: first })
    expect(await stat(restarted)).toEqual({ quota: 3700, token: 555 })
    expect(await stat(restarted, FIRST_DAY, FIRST_DAY + 2 * DAY - 1)).toEqual({ quota: 1700, token: 255 })
    expect(await stat(restarted, FIRST_DAY + 2 * DAY, FIRST_DAY + 4 * DAY - 1)).toEqual({
      quota: 2000,
      token: 300,
    })
    expect(await usageByDay(db)).toEqual([
      { day: 0, requests: 2, quota: 300, errors: 0 },
      { day: 1, requests: 2, quota: 1400, errors: 3 },
      { day: 3, requests: 1, quota: 2000, errors: 0 },
    ])
  })

  it('leaves totals that match alone', async () => {
    // The first node's writes after the rebuild keep them exact: a start finds nothing to do.
    await insertLogs(first.context.logDb, [consumeLog(4, 60)])
    expect(await checkLogTotals(first.context.logDb as unknown as Kysely<unknown>)).toEqual([])
    expect(await stat(first)).toEqual({ quota: 3760, token: 564 })
  })
})
