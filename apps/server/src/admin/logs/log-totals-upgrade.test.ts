import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/database.ts'
import { parseDatabaseTarget } from '../../db/dsn.ts'
import { withUsage } from '../../db/repositories/usage-rollups.ts'
import { ApiClient } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { createScratchDatabase, type ScratchDatabase, testDialects } from '../../testing/test-databases.ts'

const DAY = 86_400
const MIDNIGHT = 19_675 * DAY

/** Consume logs (and one top-up) that one-api wrote before log_daily_totals existed. */
const OLD_LOGS = [
  { created_at: MIDNIGHT - 1, type: 2, quota: 7, prompt: 1, completion: 2 },
  { created_at: MIDNIGHT, type: 2, quota: 100, prompt: 10, completion: 5 },
  { created_at: MIDNIGHT + 3600, type: 2, quota: 200, prompt: 20, completion: 10 },
  { created_at: MIDNIGHT + 3700, type: 1, quota: 5000, prompt: 0, completion: 0 },
  { created_at: MIDNIGHT + DAY + 10, type: 2, quota: 400, prompt: 40, completion: 20 },
  { created_at: MIDNIGHT + 3 * DAY + 50, type: 2, quota: 800, prompt: 80, completion: 40 },
]

function oneApiLogsTable(dialect: string): string {
  const id =
    dialect === 'sqlite'
      ? 'integer primary key autoincrement'
      : dialect === 'postgres'
        ? 'bigserial primary key'
        : 'bigint auto_increment primary key'
  const text = dialect === 'mysql' ? 'longtext' : 'text'
  const bool = dialect === 'postgres' ? 'boolean' : 'numeric'
  return `create table logs (id ${id}, user_id bigint, created_at bigint, type bigint, content ${text}, username varchar(191) default '', token_name varchar(191) default '', model_name varchar(191) default '', quota bigint default 0, prompt_tokens bigint default 0, completion_tokens bigint default 0, channel_id bigint, request_id varchar(191) default '', elapsed_time bigint default 0, is_stream ${bool} default false, system_prompt_reset ${bool} default false)`
}

describe.each(testDialects())('daily log totals of an upgraded one-api database on %s', (dialect) => {
  let scratch: ScratchDatabase
  let server: TestApp
  let root: ApiClient

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect, mkdtempSync(join(tmpdir(), 'one-api-totals-')))
    const target = parseDatabaseTarget(scratch.dsn, scratch.sqlitePath ?? '')
    const handle = openDatabase<unknown>(target, { poolSize: 1, busyTimeoutMs: 1000, maxLifetimeSeconds: 0 })
    const db = handle.db as Kysely<unknown>
    await sql.raw(oneApiLogsTable(dialect)).execute(db)
    for (const log of OLD_LOGS) {
      await sql`insert into logs (user_id, created_at, type, content, username, quota, prompt_tokens, completion_tokens)
        values (1, ${log.created_at}, ${log.type}, 'old log', 'root', ${log.quota}, ${log.prompt}, ${log.completion})`.execute(
        db,
      )
    }
    await handle.close()
    server = await startTestApp(
      dialect,
      scratch.dsn ? { SQL_DSN: scratch.dsn } : { SQLITE_PATH: scratch.sqlitePath ?? '' },
    )
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
  })

  afterAll(async () => {
    await server?.close()
    await scratch?.drop()
  })

  it.each([
    ['', { quota: 1507, token: 228 }],
    [`start_timestamp=${MIDNIGHT}`, { quota: 1500, token: 225 }],
    [`start_timestamp=${MIDNIGHT + 1}&end_timestamp=${MIDNIGHT + 2 * DAY}`, { quota: 600, token: 90 }],
    [`start_timestamp=${MIDNIGHT - 1}&end_timestamp=${MIDNIGHT + 4 * DAY}`, { quota: 1507, token: 228 }],
  ])('counts the logs one-api left in the stat with %s', async (query, expected) => {
    expect((await root.get(`/api/log/stat?${query}`)).body.data).toEqual(expected)
  })

  it('fills the dashboard usage tables from the logs one-api left (channel NULL counts as 0)', async () => {
    const rows = await withUsage(server.context.logDb)
      .selectFrom('usage_daily')
      .selectAll()
      .orderBy('day')
      .execute()
    expect(
      rows.map((row) => ({
        day: Number(row.day),
        user: Number(row.user_id),
        model: row.model_name,
        channel: Number(row.channel_id),
        requests: Number(row.request_count),
        quota: Number(row.quota),
        prompt: Number(row.prompt_tokens),
        completion: Number(row.completion_tokens),
      })),
    ).toEqual([
      { day: 19_674, user: 1, model: '', channel: 0, requests: 1, quota: 7, prompt: 1, completion: 2 },
      { day: 19_675, user: 1, model: '', channel: 0, requests: 2, quota: 300, prompt: 30, completion: 15 },
      { day: 19_676, user: 1, model: '', channel: 0, requests: 1, quota: 400, prompt: 40, completion: 20 },
      { day: 19_678, user: 1, model: '', channel: 0, requests: 1, quota: 800, prompt: 80, completion: 40 },
    ])
    const users = await withUsage(server.context.logDb).selectFrom('usage_daily_users').selectAll().execute()
    expect(users.reduce((total, row) => total + Number(row.quota), 0)).toBe(1507)
    const channels = await withUsage(server.context.logDb)
      .selectFrom('usage_daily_channels')
      .selectAll()
      .execute()
    expect(channels.reduce((total, row) => total + Number(row.request_count), 0)).toBe(5)
    for (const table of ['usage_daily_models', 'usage_daily_channel_totals'] as const) {
      const days = await withUsage(server.context.logDb)
        .selectFrom(table)
        .select(['day', 'quota', 'request_count'])
        .orderBy('day')
        .execute()
      expect(days.map((row) => [Number(row.day), Number(row.quota), Number(row.request_count)])).toEqual([
        [19_674, 7, 1],
        [19_675, 300, 2],
        [19_676, 400, 1],
        [19_678, 800, 1],
      ])
    }
  })

  it('keeps the upgraded totals exact after a delete', async () => {
    await root.delete(`/api/log/?target_timestamp=${MIDNIGHT + 3600}`)
    expect((await root.get('/api/log/stat')).body.data).toEqual({ quota: 1400, token: 210 })
    expect((await root.get(`/api/log/stat?end_timestamp=${MIDNIGHT + DAY}`)).body.data).toEqual({
      quota: 200,
      token: 30,
    })
  })
})
