import { LogType } from '@one-api/contracts'
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import { isSqlite, startsWith } from '../dialect.ts'
import type { LogSchema } from '../schema.ts'
import {
  dayOf,
  dropEmptyDays,
  inTransaction,
  subtractDeletedLogs,
  sumConsumeLogsByDay,
} from './log-totals.ts'
import { dropClearedUsage, subtractLogUsage } from './usage-rollups.ts'

/**
 * Reads of the logs table for the log pages. The table can hold millions of rows, so every list
 * is `ORDER BY id DESC LIMIT n OFFSET m` with equality filters that match one of its
 * `(column, id)` indexes (db/migrations/table-definitions.ts); bench/log-queries measures them.
 */
export interface LogFilter {
  /** Only this user's logs (the self view). */
  userId?: number
  /** 0 or undefined: every type. */
  type?: number
  username?: string
  tokenName?: string
  modelName?: string
  channelId?: number
  /** Inclusive unix seconds; 0 or undefined: unbounded. */
  startTimestamp?: number
  endTimestamp?: number
}

const LOG_COLUMNS = [
  'id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'channel_id',
  'ip',
  'request_id',
  'elapsed_time',
  'is_stream',
] as const

export interface LogRow {
  id: number
  created_at: number
  type: number
  content: string
  username: string
  token_name: string
  model_name: string
  quota: number
  prompt_tokens: number
  completion_tokens: number
  channel_id: number
  ip: string
  request_id: string
  elapsed_time: number
  is_stream: boolean | number
}

type LogQuery<Output> = SelectQueryBuilder<LogSchema, 'logs', Output>

/**
 * How a filter is written so the database walks the right index. `type` has six values and
 * consume logs are most rows, so it drives an index only when it is the sole filter. Pages and
 * sums choose how to use a time range below. `column + 0` keeps a condition exact but out of
 * index selection, on SQLite (which has no planner statistics) as on the others.
 */
interface QueryPlan {
  typeIndexed: boolean
  timeIndexed: boolean
}

const unindexed = (column: 'type' | 'created_at') => sql<number>`${sql.ref(column)} + 0`

function hasSelectiveEquality(filter: LogFilter): boolean {
  return equalities(filter).some((equality) => equality.value !== undefined)
}

/** Leeway for clocks of other nodes running ahead of ours. */
const CLOCK_SKEW_SECONDS = 60

/**
 * An end in the future bounds nothing (the console sends now + 1 hour by default); dropping it
 * spares a per-row check and lets pages walk ids. Logs cannot be dated beyond now plus skew.
 */
function withoutFutureEnd(filter: LogFilter): LogFilter {
  const horizon = Math.floor(Date.now() / 1000) + CLOCK_SKEW_SECONDS
  return filter.endTimestamp && filter.endTimestamp >= horizon
    ? { ...filter, endTimestamp: undefined }
    : filter
}

function hasTimeRange(filter: LogFilter): boolean {
  return Boolean(filter.startTimestamp || filter.endTimestamp)
}

/**
 * The equality filters, most selective first by nature: one user among many, then one of dozens
 * of models, one of a few channels, then token names (every user has a "default"). Only the first
 * present one may drive an index; the others are checked on its rows. SQLite has no statistics
 * to pick between them, and a wrong pick walks ten times the rows.
 */
function equalities(filter: LogFilter) {
  return [
    { column: 'user_id', value: filter.userId },
    { column: 'username', value: filter.username || undefined },
    { column: 'model_name', value: filter.modelName || undefined },
    { column: 'channel_id', value: filter.channelId || undefined },
    { column: 'token_name', value: filter.tokenName || undefined },
  ] as const
}

function applyFilter<Output>(query: LogQuery<Output>, filter: LogFilter, plan: QueryPlan): LogQuery<Output> {
  let filtered = query
  let indexed = false
  for (const { column, value } of equalities(filter)) {
    if (value === undefined) continue
    if (indexed) {
      // Same result, but an expression: the planner cannot choose this column's index.
      const expression =
        typeof value === 'number' ? sql`${sql.ref(column)} + 0` : sql`coalesce(${sql.ref(column)}, '')`
      filtered = filtered.where((eb) => eb(expression, '=', value))
    } else {
      filtered = filtered.where(column, '=', value)
      indexed = true
    }
  }
  if (filter.type) {
    const type = filter.type
    filtered = plan.typeIndexed
      ? filtered.where('type', '=', type)
      : filtered.where((eb) => eb(unindexed('type'), '=', type))
  }
  const createdAt = plan.timeIndexed ? sql.ref<number>('created_at') : unindexed('created_at')
  const { startTimestamp, endTimestamp } = filter
  if (startTimestamp) filtered = filtered.where((eb) => eb(createdAt, '>=', startTimestamp))
  if (endTimestamp) filtered = filtered.where((eb) => eb(createdAt, '<=', endTimestamp))
  return filtered
}

/**
 * Share of the logs inside the filter's time range, from the oldest and newest log times (two
 * index probes) and assuming a steady log rate. Only used to choose a plan: results are exact.
 */
async function timeRangeShare(db: Kysely<LogSchema>, filter: LogFilter): Promise<number> {
  const bounds = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('logs')
        .select((inner) => inner.fn.min('created_at').as('value'))
        .as('oldest'),
      eb
        .selectFrom('logs')
        .select((inner) => inner.fn.max('created_at').as('value'))
        .as('newest'),
    ])
    .executeTakeFirst()
  if (!bounds || bounds.oldest === null || bounds.newest === null) return 0
  const oldest = Number(bounds.oldest)
  const newest = Number(bounds.newest)
  const start = Math.max(filter.startTimestamp || oldest, oldest)
  const end = Math.min(filter.endTimestamp || newest, newest)
  return Math.max(0, end - start + 1) / (newest - oldest + 1)
}

/**
 * A page with a time range and no selective equality filter walks the created_at index backwards
 * from the range's end, newest first, so any range (the console always sends one) costs only the
 * rows it returns. Otherwise the page walks the best `(column, id)` index and the planner may
 * still use the time range.
 */
function planPage(filter: LogFilter): QueryPlan & { byTime: boolean } {
  const byTime = hasTimeRange(filter) && !hasSelectiveEquality(filter)
  return { byTime, timeIndexed: true, typeIndexed: !byTime && !hasSelectiveEquality(filter) }
}

/**
 * Index lookups cost several sequential rows, so a sum uses the time index for narrow ranges
 * only, and for very narrow ones when an equality filter's index is there to use instead.
 */
const NARROW_TIME_SHARE = 0.25
const NARROW_TIME_SHARE_WITH_EQUALITY = 0.02

async function planSum(db: Kysely<LogSchema>, filter: LogFilter): Promise<QueryPlan> {
  const narrow = hasSelectiveEquality(filter) ? NARROW_TIME_SHARE_WITH_EQUALITY : NARROW_TIME_SHARE
  if (!hasSelectiveEquality(filter)) {
    // (type, created_at, quota, tokens) covers this sum: an index-only range scan, no row reads.
    return { timeIndexed: true, typeIndexed: true }
  }
  const timeIndexed = hasTimeRange(filter) && (await timeRangeShare(db, filter)) < narrow
  // With an equality filter its own index is the better driver; type is checked on its rows.
  return { timeIndexed, typeIndexed: false }
}

/**
 * One page, newest first: by id, or by (created_at, id) when the time index drives the page
 * (the same order but for logs written out of order by the batched writer, seconds apart). The
 * page's ids are found first, often from an index alone, and only those rows are read in full,
 * so a deep page skips index entries rather than whole rows.
 */
export async function listLogs(
  db: Kysely<LogSchema>,
  filter: LogFilter,
  offset: number,
  limit: number,
): Promise<LogRow[]> {
  const effective = withoutFutureEnd(filter)
  const plan = planPage(effective)
  let idQuery = applyFilter(db.selectFrom('logs').select('id'), effective, plan)
  if (plan.byTime) idQuery = idQuery.orderBy('created_at', 'desc')
  const page = await idQuery.orderBy('id', 'desc').limit(limit).offset(offset).execute()
  if (page.length === 0) return []
  const ids = page.map((row) => row.id)
  const rows = await db.selectFrom('logs').select(LOG_COLUMNS).where('id', 'in', ids).execute()
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export interface LogStatSums {
  quota: number
  token: number
}

/**
 * Quota and tokens (prompt + completion) of the consume logs that match the filter. Without an
 * equality filter the sum comes from the daily totals (log-totals.ts) plus the partial days at the
 * range's ends; with one, that filter's index drives a sum over the matching rows.
 */
export async function sumConsumeLogs(db: Kysely<LogSchema>, filter: LogFilter): Promise<LogStatSums> {
  if (filter.type && filter.type !== LogType.consume) return { quota: 0, token: 0 }
  const consume = withoutFutureEnd({ ...filter, type: LogType.consume })
  if (!hasSelectiveEquality(consume)) {
    return sumConsumeLogsByDay(db, consume.startTimestamp || undefined, consume.endTimestamp || undefined)
  }
  const row = await applyFilter(db.selectFrom('logs'), consume, await planSum(db, consume))
    .select([
      sql<number | string | null>`sum(quota)`.as('quota'),
      sql<number | string | null>`sum(prompt_tokens + completion_tokens)`.as('token'),
    ])
    .executeTakeFirst()
  return { quota: Number(row?.quota ?? 0), token: Number(row?.token ?? 0) }
}

/** Content search looks at the newest logs only, so a prefix that matches nothing stays cheap. */
export const CONTENT_SEARCH_WINDOW = 100_000

/**
 * The newest `limit` logs matching a keyword: a number is a log type, anything else a prefix of
 * the content (among the newest CONTENT_SEARCH_WINDOW logs); blank gives the newest logs.
 * `userId` limits the search to one user.
 */
export function searchLogs(
  db: Kysely<LogSchema>,
  keyword: string,
  userId: number | undefined,
  limit: number,
): Promise<LogRow[]> {
  let query = db.selectFrom('logs').select(LOG_COLUMNS)
  if (userId !== undefined) query = query.where('user_id', '=', userId)
  if (/^\d{1,9}$/.test(keyword)) query = query.where('type', '=', Number(keyword))
  else if (keyword !== '') {
    query = query
      .where(startsWith('content', keyword))
      .where('id', '>', (eb) =>
        eb
          .selectFrom('logs')
          .select(sql<number>`coalesce(max(id), 0) - ${CONTENT_SEARCH_WINDOW}`.as('floor')),
      )
  }
  return query.orderBy('id', 'desc').limit(limit).execute()
}

const DELETE_BATCH = 5000

/**
 * Deletes the logs created before `timestamp` in batches, so a large clean-up never holds one
 * huge transaction (and its locks) on a busy table. Each batch locks its rows, deletes them and
 * takes their totals out of the daily totals and the usage tables in one transaction, so the totals stay exact between
 * batches and when two clean-ups overlap (the second one skips rows the first has deleted).
 * Returns how many were deleted.
 */
export async function deleteLogsBefore(db: Kysely<LogSchema>, timestamp: number): Promise<number> {
  let deleted = 0
  for (;;) {
    const batch = await inTransaction(db, async (transaction) => {
      let query = transaction
        .selectFrom('logs')
        .select([
          'id',
          'type',
          'created_at',
          'quota',
          'prompt_tokens',
          'completion_tokens',
          'user_id',
          'model_name',
          'channel_id',
        ])
        .where('created_at', '<', timestamp)
        .limit(DELETE_BATCH)
      // SQLite has one writer at a time and no row locks.
      if (!isSqlite(db)) query = query.forUpdate()
      const rows = await query.execute()
      if (rows.length === 0) return { selected: 0, deleted: 0 }
      const result = await transaction
        .deleteFrom('logs')
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .executeTakeFirst()
      await subtractDeletedLogs(transaction, rows)
      await subtractLogUsage(transaction, rows)
      return { selected: rows.length, deleted: Number(result.numDeletedRows) }
    })
    deleted += batch.deleted
    if (batch.selected < DELETE_BATCH) break
  }
  await dropEmptyDays(db, dayOf(timestamp) + 1)
  await dropClearedUsage(db, timestamp)
  return deleted
}
