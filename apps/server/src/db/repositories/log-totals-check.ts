import { LogType } from '@one-api/contracts'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import { isMysql } from '../dialect.ts'
import { backfillDailyTotals } from './log-totals.ts'
import {
  COUNT_COLUMNS,
  isBlockTable,
  logDayExpression,
  logKeyExpressions,
  USAGE_KEYS,
  USAGE_TABLES,
  type UsageTableName,
  VERSIONED_TABLE,
} from './usage-rollups.ts'

/**
 * What a set of consume logs comes to, read from the logs or from a table that sums them: how many,
 * their quota, their tokens, and the sum of their days (so a log moved to another day shows too).
 * Four sums through the covering index of the logs: cheap enough to check at every start.
 */
interface Fingerprint {
  count: bigint
  quota: bigint
  tokens: bigint
  days: bigint
}

const FIELDS = ['count', 'quota', 'tokens', 'days'] as const

/** A sum as the drivers return it (number, or a decimal string on PostgreSQL and MySQL). */
function whole(value: unknown): bigint {
  const text = String(value ?? 0)
  return /^-?\d+$/.test(text) ? BigInt(text) : BigInt(Math.round(Number(text)))
}

async function fingerprint(
  db: Kysely<unknown>,
  query: RawBuilder<unknown>,
  blocks = 'days',
): Promise<Fingerprint & { blocks: bigint }> {
  const row = ((await query.execute(db)).rows[0] ?? {}) as Record<string, unknown>
  return {
    count: whole(row.count),
    quota: whole(row.quota),
    tokens: whole(row.tokens),
    days: whole(row.days),
    blocks: whole(row[blocks]),
  }
}

/**
 * The consume logs' own fingerprint, in one pass: `days` sums their days, and `blocks` the first
 * days of their 7-day blocks, which is what a block table's `day` sums to.
 */
async function logsFingerprint(db: Kysely<unknown>): Promise<{ days: Fingerprint; blocks: Fingerprint }> {
  const days = await fingerprint(
    db,
    sql`select count(*) as count, sum(quota) as quota, sum(prompt_tokens + completion_tokens) as tokens,
      sum(${logDayExpression(db, 'usage_daily')}) as days,
      sum(${logDayExpression(db, 'usage_weekly_users')}) as blocks
      from logs where type = ${LogType.consume} and created_at is not null`,
    'blocks',
  )
  return { days, blocks: { ...days, days: days.blocks } }
}

function dailyTotalsFingerprint(db: Kysely<unknown>): Promise<Fingerprint> {
  return fingerprint(
    db,
    sql`select sum(request_count) as count, sum(quota) as quota, sum(tokens) as tokens,
      sum(day * request_count) as days from log_daily_totals`,
  )
}

function usageFingerprint(db: Kysely<unknown>, table: UsageTableName): Promise<Fingerprint> {
  return fingerprint(
    db,
    sql`select sum(request_count) as count, sum(quota) as quota,
      sum(prompt_tokens + completion_tokens) as tokens, sum(day * request_count) as days
      from ${sql.table(table)}`,
  )
}

function same(a: Fingerprint, b: Fingerprint): boolean {
  return FIELDS.every((field) => a[field] === b[field])
}

/**
 * Checks the tables that sum the consume logs (the log page's daily totals, the dashboards' usage)
 * against the logs, and rebuilds each that differs. Every write of ours keeps them exact; what
 * this catches is logs written or deleted behind the gateway's back: by one-api running on the
 * database again after the upgrade, or by hand. Returns the tables rebuilt.
 */
export async function checkLogTotals(db: Kysely<unknown>): Promise<string[]> {
  const logs = await logsFingerprint(db)
  const rebuilt: string[] = []
  if (!same(logs.days, await dailyTotalsFingerprint(db))) {
    await db.transaction().execute((transaction) => backfillDailyTotals(transaction))
    rebuilt.push('log_daily_totals')
  }
  for (const table of USAGE_TABLES) {
    if (same(isBlockTable(table) ? logs.blocks : logs.days, await usageFingerprint(db, table))) continue
    await db.transaction().execute((transaction) => rebuildUsageCounts(transaction, table))
    rebuilt.push(table)
  }
  return rebuilt
}

/** The usage columns a log gives (error_count counts failed attempts, which logs do not record). */
const LOGGED_COLUMNS = COUNT_COLUMNS.filter((column) => column !== 'error_count')

/**
 * Sets one usage table's logged counts to the sums of the stored consume logs, keeping its error
 * counts: they are zeroed, set again from the logs (one upsert from a grouped select), and rows
 * left with nothing at all go. Run in a transaction, so readers see the old counts or the new.
 * The day totals' rows stay, and every one of their versions moves on (the dashboards' cache of
 * finished days then reads them again).
 */
async function rebuildUsageCounts(db: Kysely<unknown>, table: UsageTableName): Promise<void> {
  const keys = USAGE_KEYS[table]
  const grouped = logKeyExpressions(db, table)
  const zeroed = LOGGED_COLUMNS.map((column) => sql`${sql.ref(column)} = 0`)
  if (table === VERSIONED_TABLE) zeroed.push(sql`version = version + 1`)
  await sql`update ${sql.table(table)} set ${sql.join(zeroed)}`.execute(db)
  const assignments = LOGGED_COLUMNS.map((column) =>
    isMysql(db)
      ? sql`${sql.ref(column)} = values(${sql.ref(column)})`
      : sql`${sql.ref(column)} = excluded.${sql.ref(column)}`,
  )
  const onConflict = isMysql(db)
    ? sql`on duplicate key update ${sql.join(assignments)}`
    : sql`on conflict (${sql.join(keys.map((key) => sql.ref(key)))}) do update set ${sql.join(assignments)}`
  await sql`
    insert into ${sql.table(table)} (${sql.join(keys.map((key) => sql.ref(key)))},
      request_count, quota, prompt_tokens, completion_tokens, error_count)
    select ${sql.join(grouped)}, count(*), coalesce(sum(quota), 0), coalesce(sum(prompt_tokens), 0),
      coalesce(sum(completion_tokens), 0), 0
    from logs
    where type = ${LogType.consume} and created_at is not null
    group by ${sql.join(grouped)}
    ${onConflict}
  `.execute(db)
  if (table === VERSIONED_TABLE) return
  const empty = COUNT_COLUMNS.map((column) => sql`${sql.ref(column)} = 0`)
  await sql`delete from ${sql.table(table)} where ${sql.join(empty, sql` and `)}`.execute(db)
}
