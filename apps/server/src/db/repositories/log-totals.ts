import { LogType } from '@one-api/contracts'
import { type Kysely, sql, type Transaction } from 'kysely'
import { isMysql } from '../dialect.ts'
import type { LogSchema, LogsTable, NewLog } from '../schema.ts'
import { dayOf, SECONDS_PER_DAY } from './log-days.ts'
import { addLogUsage } from './usage-rollups.ts'

/**
 * Pre-aggregated consume-log totals, one row per UTC day, so the quota sum of the log page
 * reads a few dozen rows instead of scanning every log. The totals stay exact because every
 * write of logs adds its consume rows' totals in the same transaction (insertLogsWithTotals),
 * and every delete subtracts the totals of the rows it deletes (subtractDeletedLogs).
 */
export interface LogDailyTotalsTable {
  /** floor(created_at / 86400): days since 1970-01-01 UTC. */
  day: number
  quota: number
  /** prompt_tokens + completion_tokens. */
  tokens: number
  request_count: number
}

export type LogTotalsSchema = LogSchema & { log_daily_totals: LogDailyTotalsTable }

export { dayOf, SECONDS_PER_DAY }

type DayTotals = Omit<LogDailyTotalsTable, 'day'>

type ConsumeFields = Pick<NewLog, 'type' | 'created_at' | 'quota' | 'prompt_tokens' | 'completion_tokens'>

/** The consume rows' totals per day, oldest day first (so every writer locks days in one order). */
export function totalsByDay(logs: Iterable<ConsumeFields>): LogDailyTotalsTable[] {
  const days = new Map<number, DayTotals>()
  for (const log of logs) {
    if (Number(log.type) !== LogType.consume) continue
    const day = dayOf(Number(log.created_at))
    const totals = days.get(day) ?? { quota: 0, tokens: 0, request_count: 0 }
    totals.quota += Number(log.quota ?? 0)
    totals.tokens += Number(log.prompt_tokens ?? 0) + Number(log.completion_tokens ?? 0)
    totals.request_count += 1
    days.set(day, totals)
  }
  return [...days.entries()].sort(([a], [b]) => a - b).map(([day, totals]) => ({ day, ...totals }))
}

export function withTotals(db: Kysely<LogSchema>): Kysely<LogTotalsSchema> {
  return db.withTables<{ log_daily_totals: LogDailyTotalsTable }>()
}

/**
 * Adds (or, with negative numbers, takes away) totals with one atomic upsert: the database adds
 * to the stored row under its row lock, so writers on several nodes never lose each other's sums.
 */
export async function addDailyTotals(db: Kysely<LogSchema>, rows: LogDailyTotalsTable[]): Promise<void> {
  if (rows.length === 0) return
  const insert = withTotals(db).insertInto('log_daily_totals').values(rows)
  if (isMysql(db)) {
    await insert
      .onDuplicateKeyUpdate({
        quota: sql`quota + values(quota)`,
        tokens: sql`tokens + values(tokens)`,
        request_count: sql`request_count + values(request_count)`,
      })
      .execute()
    return
  }
  await insert
    .onConflict((conflict) =>
      conflict.column('day').doUpdateSet({
        quota: sql`log_daily_totals.quota + excluded.quota`,
        tokens: sql`log_daily_totals.tokens + excluded.tokens`,
        request_count: sql`log_daily_totals.request_count + excluded.request_count`,
      }),
    )
    .execute()
}

/** Runs `work` in a transaction, or in the caller's one when `db` already is a transaction. */
export function inTransaction<Result>(
  db: Kysely<LogSchema>,
  work: (transaction: Kysely<LogSchema>) => Promise<Result>,
): Promise<Result> {
  if (db.isTransaction) return work(db)
  return db.transaction().execute((transaction: Transaction<LogSchema>) => work(transaction))
}

/**
 * The one way logs are written: the rows, their consume totals and their usage (usage-rollups.ts)
 * commit together, so the daily totals and the usage tables always equal the sums of the stored rows. Used by the batched writer and insertLogs.
 */
export async function insertLogsWithTotals(db: Kysely<LogSchema>, logs: NewLog[]): Promise<void> {
  if (logs.length === 0) return
  const totals = totalsByDay(logs)
  if (totals.length === 0) {
    await db.insertInto('logs').values(logs).execute()
    return
  }
  await inTransaction(db, async (transaction) => {
    await transaction.insertInto('logs').values(logs).execute()
    await addDailyTotals(transaction, totals)
    await addLogUsage(transaction, logs)
  })
}

/** Takes the totals of rows about to be deleted (in the same transaction) out of the daily totals. */
export async function subtractDeletedLogs(
  db: Kysely<LogSchema>,
  deleted: Pick<LogsTable, 'type' | 'created_at' | 'quota' | 'prompt_tokens' | 'completion_tokens'>[],
): Promise<void> {
  const negated = totalsByDay(deleted).map((row) => ({
    day: row.day,
    quota: -row.quota,
    tokens: -row.tokens,
    request_count: -row.request_count,
  }))
  await addDailyTotals(db, negated)
}

/** Days left without consume logs add nothing to any sum; dropping them keeps the table small. */
export async function dropEmptyDays(db: Kysely<LogSchema>, beforeDay: number): Promise<void> {
  await withTotals(db)
    .deleteFrom('log_daily_totals')
    .where('day', '<', beforeDay)
    .where('request_count', '=', 0)
    .execute()
}

/**
 * Rebuilds every day's totals from the stored logs in one INSERT … SELECT … GROUP BY; the
 * migration that adds the table runs it so an upgraded database is right from the start.
 */
export async function backfillDailyTotals(db: Kysely<unknown>): Promise<void> {
  // A literal, not a parameter: PostgreSQL matches the grouped expression to the selected one only
  // when both are the same text. Integer division: created_at is a whole number of seconds.
  const seconds = sql.lit(SECONDS_PER_DAY)
  const day = isMysql(db) ? sql`created_at div ${seconds}` : sql`created_at / ${seconds}`
  await sql`delete from log_daily_totals`.execute(db)
  await sql`
    insert into log_daily_totals (day, quota, tokens, request_count)
    select ${day}, coalesce(sum(quota), 0), coalesce(sum(prompt_tokens + completion_tokens), 0), count(*)
    from logs
    where type = ${LogType.consume} and created_at is not null
    group by ${day}
  `.execute(db)
}

export interface ConsumeSums {
  quota: number
  token: number
}

/**
 * Quota and tokens of every consume log in [start, end] (undefined: unbounded), in one statement
 * (one snapshot): the whole UTC days inside the range from the daily totals, plus the raw rows
 * of a partial first and last day through the covering (type, created_at, quota, tokens) index.
 * A log belongs to exactly one day, so nothing is counted twice even while logs are written.
 */
export async function sumConsumeLogsByDay(
  db: Kysely<LogSchema>,
  start: number | undefined,
  end: number | undefined,
): Promise<ConsumeSums> {
  // Whole days are [firstDay, endDay): firstDay starts at or after `start`, endDay - 1 ends by `end`.
  const firstDay = start === undefined ? undefined : Math.ceil(start / SECONDS_PER_DAY)
  const endDay = end === undefined ? undefined : Math.floor((end + 1) / SECONDS_PER_DAY)
  const parts = []
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    parts.push(rawSums(start, end))
  } else {
    const days = []
    if (firstDay !== undefined) days.push(sql`day >= ${firstDay}`)
    if (endDay !== undefined) days.push(sql`day < ${endDay}`)
    const where = days.length > 0 ? sql`where ${sql.join(days, sql` and `)}` : sql``
    parts.push(sql`select sum(quota) as quota, sum(tokens) as tokens from log_daily_totals ${where}`)
    if (start !== undefined && firstDay !== undefined && start < firstDay * SECONDS_PER_DAY) {
      parts.push(rawSums(start, firstDay * SECONDS_PER_DAY - 1))
    }
    if (end !== undefined && endDay !== undefined && endDay * SECONDS_PER_DAY <= end) {
      parts.push(rawSums(endDay * SECONDS_PER_DAY, end))
    }
  }
  const result = await sql<{ quota: number | string | null; tokens: number | string | null }>`
    select sum(quota) as quota, sum(tokens) as tokens from (${sql.join(parts, sql` union all `)}) parts
  `.execute(db)
  const row = result.rows[0]
  return { quota: Number(row?.quota ?? 0), token: Number(row?.tokens ?? 0) }
}

function rawSums(start: number | undefined, end: number | undefined) {
  const bounds = [sql`type = ${LogType.consume}`]
  if (start !== undefined) bounds.push(sql`created_at >= ${start}`)
  if (end !== undefined) bounds.push(sql`created_at <= ${end}`)
  return sql`select sum(quota) as quota, sum(prompt_tokens + completion_tokens) as tokens
    from logs where ${sql.join(bounds, sql` and `)}`
}
