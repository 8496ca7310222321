import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECONDS_PER_DAY } from '../db/repositories/log-totals.ts'
import { insertLogs, systemLog } from '../db/repositories/logs-repository.ts'
import {
  addUsage,
  backfillUsageFromDaily,
  blockStart,
  COUNT_COLUMNS,
  isBlockTable,
  USAGE_KEYS,
  USAGE_TABLES,
  type UsageTableName,
  withUsage,
} from '../db/repositories/usage-rollups.ts'
import type { NewLog } from '../db/schema.ts'
import { RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'
import { LogWriter } from './log-writer.ts'

const DAY = SECONDS_PER_DAY
/** Midnight UTC, ten days ago: older logs, as an upgraded or long-running gateway has. */
const OLD_DAY = (Math.floor(Date.now() / 1000 / DAY) - 10) * DAY

type Row = Record<string, number | string>

/** The table's rows, numbers as numbers, sorted by key; rows counting nothing are left out. */
async function tableRows(fixture: RelayFixture, table: UsageTableName): Promise<Row[]> {
  const rows = await withUsage(fixture.server.context.logDb).selectFrom(table).selectAll().execute()
  return normalise(
    (rows as Row[]).filter((row) => Number(row.request_count) !== 0 || Number(row.error_count) !== 0),
    table,
  )
}

function normalise(rows: Row[], table: UsageTableName): Row[] {
  const keys = USAGE_KEYS[table]
  const numeric = (row: Row) =>
    Object.fromEntries(
      [...keys, ...COUNT_COLUMNS].map((column) => [
        column,
        column === 'model_name' ? String(row[column]) : Number(row[column]),
      ]),
    )
  return rows.map(numeric).sort((a, b) => {
    for (const key of keys) {
      if (a[key] < b[key]) return -1
      if (a[key] > b[key]) return 1
    }
    return 0
  })
}

/** What each table must hold: a GROUP BY over the stored consume logs, errors taken from usage_daily. */
async function expectedRows(fixture: RelayFixture, table: UsageTableName, errors: Row[]): Promise<Row[]> {
  const logs = await fixture.consumeLogs()
  const keys = USAGE_KEYS[table]
  const grouped = new Map<string, Row>()
  const add = (log: Row, counts: Row) => {
    // A block table's row holds the log's 7-day block.
    const source = isBlockTable(table) ? { ...log, day: blockStart(Number(log.day)) } : log
    const key = keys.map((column) => source[column]).join('|')
    const row = grouped.get(key) ?? {
      ...Object.fromEntries(keys.map((column) => [column, source[column]])),
      ...Object.fromEntries(COUNT_COLUMNS.map((column) => [column, 0])),
    }
    for (const column of COUNT_COLUMNS) row[column] = Number(row[column]) + Number(counts[column] ?? 0)
    grouped.set(key, row)
  }
  for (const log of logs) {
    const source = {
      day: Math.floor(Number(log.created_at) / DAY),
      user_id: Number(log.user_id),
      model_name: log.model_name,
      channel_id: Number(log.channel_id),
    }
    add(source, {
      request_count: 1,
      quota: Number(log.quota),
      prompt_tokens: Number(log.prompt_tokens),
      completion_tokens: Number(log.completion_tokens),
    })
  }
  for (const error of errors) add(error, { error_count: error.error_count })
  return normalise([...grouped.values()], table)
}

async function expectRollupsMatchLogs(fixture: RelayFixture, errors: Row[]) {
  await fixture.server.context.relay.usageErrors.flush()
  for (const table of USAGE_TABLES) {
    expect({ table, rows: await tableRows(fixture, table) }).toEqual({
      table,
      rows: await expectedRows(fixture, table, errors),
    })
  }
}

/** Consume logs of earlier days, written straight and through a second batched writer. */
function olderLogs(userId: number, channel: number, label: string, count: number): NewLog[] {
  return Array.from({ length: count }, (_, index) =>
    systemLog({
      user_id: userId,
      username: 'root',
      type: index % 5 === 0 ? 4 : 2,
      content: `${label} ${index}`,
      model_name: `old-model-${index % 3}`,
      channel_id: channel + (index % 2),
      created_at: OLD_DAY + Math.floor((index / count) * 6 * DAY) + (index % 7 === 0 ? DAY - 1 : 0),
      quota: 100 + index,
      prompt_tokens: 10 + (index % 11),
      completion_tokens: index % 13,
    }),
  )
}

describe.each(testDialects())('usage rollups on %s', (dialect) => {
  let fixture: RelayFixture
  let failingChannel: number
  let servingChannel: number
  let primaryKey: string
  let userId: number
  let errors: Row[] = []

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.setPrices({ 'roll-a': 1, 'roll-b': 2 }, { 'roll-a': 2 })
    await fixture.setOption('RetryTimes', 3)
    const channels = await fixture.addPrimaryAndBackup('roll-a')
    failingChannel = channels.primary
    servingChannel = channels.backup
    primaryKey = channels.primaryKey
    await fixture.addChannel({ models: ['roll-b'], key: 'sk-roll-b' })
    fixture.mock.addFault({ match: { keyContains: channels.primaryKey }, status: 500, times: 3 })
    const user = await fixture.createUser('rollup-user', 10_000_000)
    userId = user.id
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('equals a GROUP BY over the logs after a relay burst, older logs and failed attempts', async () => {
    const rootToken = await fixture.createToken()
    const userToken = await fixture.createToken(
      {},
      (await fixture.createUser('rollup-two', 10_000_000)).client,
    )
    const root = fixture.openai(rootToken.key)
    const other = fixture.openai(userToken.key)
    // Concurrent requests of two users on two models, the first three on roll-a failing over.
    const calls = Array.from({ length: 24 }, (_, index) =>
      (index % 2 ? other : root).chat.completions.create({
        model: index % 3 ? 'roll-a' : 'roll-b',
        messages: [{ role: 'user', content: `hello ${'word '.repeat(index)}` }],
        stream: index % 4 === 0,
      }),
    )
    const answers = await Promise.all(calls)
    for (const answer of answers.filter((item) => !('choices' in item))) {
      for await (const _ of answer as AsyncIterable<unknown>) {
        // drained
      }
    }
    await fixture.waitForLogs({}, 24)
    await insertLogs(fixture.server.context.logDb, olderLogs(userId, 7, 'direct', 120))
    const writeErrors: unknown[] = []
    const writer = new LogWriter(fixture.server.context.logDb, (error) => writeErrors.push(error), {
      maxBuffered: 10_000,
      intervalMs: 60_000,
    })
    for (const log of olderLogs(1, 9, 'batched', 300)) writer.write(log)
    await writer.close()
    expect(writeErrors).toEqual([])

    // Every request the failing channel got and did not serve is one error, under its user.
    await fixture.server.context.relay.usageErrors.flush()
    const servedByFailing = (await fixture.consumeLogs()).filter((log) => log.channel_id === failingChannel)
    const failedAttempts = fixture.requestsFor(primaryKey).length - servedByFailing.length
    expect(failedAttempts).toBeGreaterThanOrEqual(1)
    const failures = await withUsage(fixture.server.context.logDb)
      .selectFrom('usage_daily')
      .select(['day', 'user_id', 'model_name', 'channel_id', 'error_count'])
      .where('error_count', '>', 0)
      .execute()
    errors = failures.map((row) => ({
      day: Number(row.day),
      user_id: Number(row.user_id),
      model_name: row.model_name,
      channel_id: Number(row.channel_id),
      error_count: Number(row.error_count),
    }))
    expect(errors.every((row) => row.channel_id === failingChannel && row.model_name === 'roll-a')).toBe(true)
    expect(errors.reduce((total, row) => total + Number(row.error_count), 0)).toBe(failedAttempts)
    expect(errors.some((row) => row.channel_id === servingChannel)).toBe(false)
    await expectRollupsMatchLogs(fixture, errors)
  })

  it.each([
    ['0005', ['usage_daily_model_users', 'usage_daily_channel_users']],
    [
      '0007',
      [
        'usage_daily_models',
        'usage_daily_channel_totals',
        'usage_weekly_users',
        'usage_weekly_model_users',
        'usage_weekly_channel_users',
      ],
    ],
  ] as const)('migration %s fills its tables from usage_daily, errors included', async (_, tables) => {
    const kept = await Promise.all(tables.map((table) => tableRows(fixture, table)))
    expect(kept.every((rows) => rows.some((row) => Number(row.error_count) > 0))).toBe(true)
    // What the migration does to a database whose usage_daily was filled before the tables existed.
    const db = fixture.server.context.logDb as Kysely<unknown>
    for (const table of tables) await sql`delete from ${sql.table(table)}`.execute(db)
    await backfillUsageFromDaily(db, tables)
    expect(await Promise.all(tables.map((table) => tableRows(fixture, table)))).toEqual(kept)
  })

  it('still equals the GROUP BY after the administrator clears logs up to the middle of a day', async () => {
    // Failed attempts on each of the older days: those of the days cleared go, in the 7-day block
    // the clean-up cuts through too.
    const older = Array.from({ length: 7 }, (_, index) => ({
      day: OLD_DAY / DAY + index,
      user_id: userId,
      model_name: 'old-model-0',
      channel_id: 7,
      error_count: index + 1,
    }))
    const counts = { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0 }
    await fixture.server.context.logDb.transaction().execute((trx) =>
      addUsage(
        trx,
        older.map((row) => ({ ...row, ...counts })),
      ),
    )
    errors = [...errors, ...older]
    await expectRollupsMatchLogs(fixture, errors)
    const target = OLD_DAY + 2 * DAY + 4321
    const cleared = await fixture.root.delete(`/api/log/?target_timestamp=${target}`)
    expect(cleared.body.success).toBe(true)
    expect(cleared.body.data).toBeGreaterThan(100)
    errors = errors.filter((row) => Number(row.day) >= Math.floor(target / DAY))
    await expectRollupsMatchLogs(fixture, errors)
    const oldest = await withUsage(fixture.server.context.logDb)
      .selectFrom('usage_daily')
      .select((eb) => eb.fn.min('day').as('day'))
      .executeTakeFirst()
    expect(Number(oldest?.day)).toBe(Math.floor(target / DAY))
  })

  it('keeps only the errors of the current day once every log is cleared', async () => {
    const target = Math.floor(Date.now() / 1000) + 2
    await new Promise((resolve) => setTimeout(resolve, 2500))
    await fixture.root.delete(`/api/log/?target_timestamp=${target}`)
    expect(await fixture.consumeLogs()).toEqual([])
    const targetDay = Math.floor(target / DAY)
    await expectRollupsMatchLogs(
      fixture,
      errors.filter((row) => Number(row.day) >= targetDay),
    )
  })
})
