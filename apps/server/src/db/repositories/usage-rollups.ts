import { LogType } from '@one-api/contracts'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import { isMysql } from '../dialect.ts'
import type { LogSchema, LogsTable } from '../schema.ts'
import { dayOf, SECONDS_PER_DAY } from './log-days.ts'

/**
 * Usage per UTC day for the dashboards, at eight grains (see usageTables in
 * usage-table-definitions.ts). Every write of consume logs adds its rows' usage in the same transaction
 * (addLogUsage), every delete of logs takes it out (subtractLogUsage), and failed upstream
 * attempts add to error_count (UsageErrorRecorder), so no dashboard query reads the logs.
 */
export interface UsageCounts {
  request_count: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  error_count: number
}

export interface UsageDailyTable extends UsageCounts {
  day: number
  user_id: number
  model_name: string
  channel_id: number
}

export type UsageDailyChannelsTable = Omit<UsageDailyTable, 'user_id'>
export type UsageDailyUsersTable = Omit<UsageDailyTable, 'model_name' | 'channel_id'>
export type UsageDailyModelUsersTable = Omit<UsageDailyTable, 'channel_id'>
export type UsageDailyChannelUsersTable = Omit<UsageDailyTable, 'model_name'>
export type UsageDailyModelsTable = Omit<UsageDailyTable, 'user_id' | 'channel_id'>
export type UsageDailyChannelTotalsTable = Omit<UsageDailyTable, 'user_id' | 'model_name'>
/**
 * The whole day's usage, plus `version`: every write to any usage row of the day adds one to it,
 * in the same transaction, so a reader that saw the same version saw the same day in every
 * usage table (the dashboards' cache of finished days relies on it). Its rows are never deleted,
 * so a version never comes back.
 */
export type UsageDailyTotalsTable = Omit<UsageDailyTable, 'user_id' | 'model_name' | 'channel_id'> & {
  version: number
}

export type UsageSchema = {
  usage_daily: UsageDailyTable
  usage_daily_channels: UsageDailyChannelsTable
  usage_daily_users: UsageDailyUsersTable
  usage_daily_model_users: UsageDailyModelUsersTable
  usage_daily_channel_users: UsageDailyChannelUsersTable
  usage_daily_models: UsageDailyModelsTable
  usage_daily_channel_totals: UsageDailyChannelTotalsTable
  usage_daily_totals: UsageDailyTotalsTable
}

export type LogUsageSchema = LogSchema & UsageSchema

export function withUsage(db: Kysely<LogSchema>): Kysely<LogUsageSchema> {
  return db.withTables<UsageSchema>()
}

export type UsageTableName = keyof UsageSchema

/** The key columns of each table, in primary-key order. */
export const USAGE_KEYS: Record<UsageTableName, readonly (keyof UsageDailyTable)[]> = {
  usage_daily: ['user_id', 'day', 'model_name', 'channel_id'],
  usage_daily_channels: ['day', 'model_name', 'channel_id'],
  usage_daily_users: ['day', 'user_id'],
  usage_daily_model_users: ['model_name', 'day', 'user_id'],
  usage_daily_channel_users: ['channel_id', 'day', 'user_id'],
  usage_daily_models: ['day', 'model_name'],
  usage_daily_channel_totals: ['day', 'channel_id'],
  usage_daily_totals: ['day'],
}

/** The table whose rows carry a day's version (see UsageDailyTotalsTable); never emptied by a delete. */
export const VERSIONED_TABLE = 'usage_daily_totals' satisfies UsageTableName

export const USAGE_TABLES = Object.keys(USAGE_KEYS) as UsageTableName[]

export const COUNT_COLUMNS = [
  'request_count',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'error_count',
] as const

/** One change of usage at the finest grain: a consume log (+1 request) or a failed attempt. */
export type UsageDelta = UsageDailyTable

export type LogUsageFields = Pick<
  LogsTable,
  | 'type'
  | 'created_at'
  | 'user_id'
  | 'model_name'
  | 'channel_id'
  | 'quota'
  | 'prompt_tokens'
  | 'completion_tokens'
>

/** The usage of consume logs (other types add nothing), one delta per log, `sign` -1 to take away. */
export function logUsageDeltas(logs: Iterable<Partial<LogUsageFields>>, sign: 1 | -1 = 1): UsageDelta[] {
  const deltas: UsageDelta[] = []
  for (const log of logs) {
    if (Number(log.type) !== LogType.consume) continue
    deltas.push({
      day: dayOf(Number(log.created_at)),
      user_id: Number(log.user_id ?? 0),
      model_name: log.model_name ?? '',
      channel_id: Number(log.channel_id ?? 0),
      request_count: sign,
      quota: sign * Number(log.quota ?? 0),
      prompt_tokens: sign * Number(log.prompt_tokens ?? 0),
      completion_tokens: sign * Number(log.completion_tokens ?? 0),
      error_count: 0,
    })
  }
  return deltas
}

/**
 * The deltas summed per row of each table, in key order (so every writer locks rows in one order
 * and two concurrent writers cannot deadlock).
 */
export function groupUsage(deltas: readonly UsageDelta[]): Record<UsageTableName, UsageDailyTable[]> {
  // Every table's key is part of usage_daily's: the deltas are summed once at that grain, and the
  // coarser tables from its few rows (a batch of a few hundred logs has a handful of them).
  const finest = sumByKey(deltas, USAGE_KEYS.usage_daily)
  const grouped = {} as Record<UsageTableName, UsageDailyTable[]>
  for (const table of USAGE_TABLES) {
    const keys = USAGE_KEYS[table]
    grouped[table] = sumByKey(finest, keys)
      .sort((a, b) => compareKeys(a, b, keys))
      .map((row) => pick(row, [...keys, ...COUNT_COLUMNS]))
  }
  return grouped
}

/** The deltas summed per value of `keys` (new objects: the deltas are not changed). */
function sumByKey(deltas: readonly UsageDelta[], keys: readonly (keyof UsageDailyTable)[]): UsageDelta[] {
  const rows = new Map<string, UsageDailyTable>()
  for (const delta of deltas) {
    const key = keys.map((column) => delta[column]).join('\u0000')
    const row = rows.get(key)
    if (!row) {
      rows.set(key, { ...delta })
      continue
    }
    for (const column of COUNT_COLUMNS) row[column] += delta[column]
  }
  return [...rows.values()]
}

function compareKeys(a: UsageDailyTable, b: UsageDailyTable, keys: readonly (keyof UsageDailyTable)[]) {
  for (const key of keys) {
    const left = a[key]
    const right = b[key]
    if (left < right) return -1
    if (left > right) return 1
  }
  return 0
}

function pick(row: UsageDailyTable, columns: readonly (keyof UsageDailyTable)[]): UsageDailyTable {
  const picked: Record<string, unknown> = {}
  for (const column of columns) picked[column] = row[column]
  return picked as unknown as UsageDailyTable
}

/**
 * Fills tables added after usage_daily from it (error counts included), for the migration that
 * adds them: usage_daily holds every grain's rows at the finest key.
 */
export async function backfillUsageFromDaily(db: Kysely<unknown>, tables: readonly UsageTableName[]) {
  for (const table of tables) {
    const keys = sql.join(USAGE_KEYS[table].map((key) => sql.ref(key)))
    const sums = sql.join(COUNT_COLUMNS.map((column) => sql`sum(${sql.ref(column)})`))
    await sql`delete from ${sql.table(table)}`.execute(db)
    await sql`
      insert into ${sql.table(table)} (${keys}, ${sql.join(COUNT_COLUMNS.map((column) => sql.ref(column)))})
      select ${keys}, ${sums} from usage_daily group by ${keys}
    `.execute(db)
  }
}

/** Rows per multi-row upsert: 100 rows of 9 columns stay far below every parameter limit. */
const ROWS_PER_UPSERT = 100

/**
 * Adds the deltas to the usage tables with atomic upserts (the database adds to the stored row
 * under its row lock, so writers on several nodes never lose each other's counts). Call it in
 * the transaction that writes or deletes the logs the deltas come from.
 */
export async function addUsage(db: Kysely<LogSchema>, deltas: readonly UsageDelta[]): Promise<void> {
  if (deltas.length === 0) return
  const grouped = groupUsage(deltas)
  for (const table of USAGE_TABLES) {
    const rows = grouped[table]
    for (let start = 0; start < rows.length; start += ROWS_PER_UPSERT) {
      await upsert(db, table, rows.slice(start, start + ROWS_PER_UPSERT))
    }
  }
}

async function upsert(db: Kysely<LogSchema>, table: UsageTableName, rows: UsageDailyTable[]) {
  const insert = withUsage(db)
    .insertInto(table)
    .values(rows as never)
  if (isMysql(db)) {
    const sums = Object.fromEntries(
      COUNT_COLUMNS.map((column) => [column, sql`${sql.ref(column)} + values(${sql.ref(column)})`]),
    )
    if (table === VERSIONED_TABLE) sums.version = sql`${sql.ref('version')} + 1`
    await insert.onDuplicateKeyUpdate(sums as never).execute()
    return
  }
  const sums = Object.fromEntries(
    COUNT_COLUMNS.map((column) => [
      column,
      sql`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
    ]),
  )
  if (table === VERSIONED_TABLE) sums.version = sql`${sql.ref(`${table}.version`)} + 1`
  await insert
    .onConflict((conflict) => conflict.columns(USAGE_KEYS[table] as never).doUpdateSet(sums as never))
    .execute()
}

/** Adds the usage of consume logs being written, in their transaction. */
export function addLogUsage(db: Kysely<LogSchema>, logs: readonly Partial<LogUsageFields>[]): Promise<void> {
  return addUsage(db, logUsageDeltas(logs))
}

/** Takes the usage of consume logs being deleted out, in the deleting transaction. */
export function subtractLogUsage(
  db: Kysely<LogSchema>,
  logs: readonly Partial<LogUsageFields>[],
): Promise<void> {
  return addUsage(db, logUsageDeltas(logs, -1))
}

/**
 * After logs before `timestamp` were deleted: rows of the days wholly before it that count no
 * request any more go, with the error counts of those days (history cleared with its logs); the
 * day totals stay (at zero), their versions moved on where errors were cleared.
 */
export async function dropClearedUsage(db: Kysely<LogSchema>, timestamp: number): Promise<void> {
  const beforeDay = Math.floor(timestamp / SECONDS_PER_DAY)
  await withUsage(db)
    .updateTable(VERSIONED_TABLE)
    .set((eb) => ({ error_count: 0, version: eb('version', '+', 1) }))
    .where('day', '<', beforeDay)
    .where('error_count', '<>', 0)
    .execute()
  for (const table of USAGE_TABLES) {
    if (table === VERSIONED_TABLE) continue
    await withUsage(db)
      .deleteFrom(table)
      .where('day', '<', beforeDay)
      .where('request_count', '=', 0)
      .execute()
  }
}

/**
 * Rebuilds the usage tables from the stored consume logs with INSERT … SELECT … GROUP BY: the
 * migration that adds them runs it, so an upgraded database (one-api's logs, no rollups) shows
 * its history at once. Error counts start at zero: logs do not record failed attempts.
 */
export async function backfillUsage(db: Kysely<unknown>): Promise<void> {
  for (const table of USAGE_TABLES) {
    const keys = USAGE_KEYS[table]
    const grouped = logKeyExpressions(db, table)
    await sql`delete from ${sql.table(table)}`.execute(db)
    await sql`
      insert into ${sql.table(table)} (${sql.join(keys.map((key) => sql.ref(key)))},
        request_count, quota, prompt_tokens, completion_tokens, error_count)
      select ${sql.join(grouped)}, count(*), coalesce(sum(quota), 0), coalesce(sum(prompt_tokens), 0),
        coalesce(sum(completion_tokens), 0), 0
      from logs
      where type = ${LogType.consume} and created_at is not null
      group by ${sql.join(grouped)}
    `.execute(db)
  }
}

/**
 * The SQL of a table's key columns computed from a log row, in key order. Literals, not
 * parameters: PostgreSQL matches a grouped expression to the selected one only when both are the
 * same text. Integer division: created_at is a whole number of seconds.
 */
export function logKeyExpressions(db: Kysely<unknown>, table: UsageTableName): RawBuilder<unknown>[] {
  const seconds = sql.lit(SECONDS_PER_DAY)
  const expressions: Record<string, RawBuilder<unknown>> = {
    day: isMysql(db) ? sql`created_at div ${seconds}` : sql`created_at / ${seconds}`,
    user_id: sql`coalesce(user_id, 0)`,
    model_name: sql`coalesce(model_name, '')`,
    channel_id: sql`coalesce(channel_id, 0)`,
  }
  return USAGE_KEYS[table].map((key) => expressions[key]!)
}

/** The columns of a table's row, keys first, as the write thread's statements bind them. */
export function usageColumns(table: UsageTableName): (keyof UsageDailyTable)[] {
  return [...USAGE_KEYS[table], ...COUNT_COLUMNS]
}

/** The one-row upsert of a table in SQLite's (and PostgreSQL's) syntax, for prepared statements. */
export function usageUpsertStatement(table: UsageTableName): string {
  const columns = usageColumns(table)
  const sums = COUNT_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`)
  if (table === VERSIONED_TABLE) sums.push(`version = ${table}.version + 1`)
  return `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})
   on conflict (${USAGE_KEYS[table].join(', ')}) do update set ${sums.join(', ')}`
}
