import type { DashboardUsage } from '@one-api/contracts/dashboard'
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import type { LogSchema } from '../schema.ts'
import {
  BLOCK_DAYS,
  BLOCK_TABLES,
  type BlockTableName,
  blockStart,
  type LogUsageSchema,
  type UsageTableName,
  withUsage,
} from './usage-rollups.ts'

/**
 * Reads of the usage tables (usage-rollups.ts) for the dashboards; none reads the logs. Each
 * query picks the smallest table that holds its filters and grouping, and reads only the rows of
 * its filters from that table's key or a covering index: usage_daily for a user (its key) or for
 * the users of a model on a channel; usage_daily_totals, usage_daily_models and
 * usage_daily_channel_totals for the unfiltered days, models and channels;
 * usage_daily_channels for every other day, model and channel figure; usage_daily_users,
 * usage_daily_model_users or usage_daily_channel_users for the users, with their twins by 7-day
 * block (usage_weekly_*) for the whole blocks of a period. The groupings come whole
 * (the dashboard adds the cached finished days to today's and ranks them); bench/dashboard
 * measures them.
 */
export interface UsageFilter {
  /** Inclusive day numbers (days since 1970-01-01 UTC). */
  firstDay: number
  lastDay: number
  userId?: number
  modelName?: string
  channelId?: number
}

const sum = (column: keyof DashboardUsage) => sql<string | number>`sum(${sql.ref(column)})`.as(column)
const USAGE_SUMS = [
  sum('request_count'),
  sum('quota'),
  sum('prompt_tokens'),
  sum('completion_tokens'),
  sum('error_count'),
]

type Summed = { [column in keyof DashboardUsage]: string | number | null }

export function toUsage(row: Summed | undefined): DashboardUsage {
  return {
    request_count: Number(row?.request_count ?? 0),
    quota: Number(row?.quota ?? 0),
    prompt_tokens: Number(row?.prompt_tokens ?? 0),
    completion_tokens: Number(row?.completion_tokens ?? 0),
    error_count: Number(row?.error_count ?? 0),
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the three tables share the filtered columns.
type UsageQuery = SelectQueryBuilder<LogUsageSchema, any, object>

/** The filter's rows of `table` (which must hold every column the filter uses). */
function filtered(db: Kysely<LogSchema>, table: UsageTableName, filter: UsageFilter): UsageQuery {
  let query = withUsage(db).selectFrom(table) as unknown as UsageQuery
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId)
  if (filter.modelName !== undefined) query = query.where('model_name', '=', filter.modelName)
  if (filter.channelId !== undefined) query = query.where('channel_id', '=', filter.channelId)
  return query.where('day', '>=', filter.firstDay).where('day', '<=', filter.lastDay)
}

/** The day × model × channel table that holds the filter's columns. */
function modelChannelSource(filter: UsageFilter): UsageTableName {
  return filter.userId === undefined ? 'usage_daily_channels' : 'usage_daily'
}

const unfiltered = (filter: UsageFilter) =>
  filter.userId === undefined && filter.modelName === undefined && filter.channelId === undefined

/** The table that answers the per-day figures for the filter. */
function byDaySource(filter: UsageFilter): UsageTableName {
  return unfiltered(filter) ? 'usage_daily_totals' : modelChannelSource(filter)
}

/** The table that answers the per-model figures for the filter. */
function byModelSource(filter: UsageFilter): UsageTableName {
  return unfiltered(filter) ? 'usage_daily_models' : modelChannelSource(filter)
}

/** The table that answers the per-channel figures for the filter. */
function byChannelSource(filter: UsageFilter): UsageTableName {
  return unfiltered(filter) ? 'usage_daily_channel_totals' : modelChannelSource(filter)
}

/** The table that answers the per-user figures for the filter. */
function byUserSource(filter: UsageFilter): UsageTableName {
  const byModel = filter.modelName !== undefined
  const byChannel = filter.channelId !== undefined
  if (filter.userId !== undefined || (byModel && byChannel)) return 'usage_daily'
  if (byModel) return 'usage_daily_model_users'
  if (byChannel) return 'usage_daily_channel_users'
  return 'usage_daily_users'
}

/**
 * One user's requests, quota and tokens per day and model, oldest day first then by model, for
 * `GET /api/user/dashboard`. Rows that count only failed attempts are left out: one-api's
 * dashboard counts consume logs.
 */
export async function usageByDayAndModel(db: Kysely<LogSchema>, filter: UsageFilter) {
  const rows = await filtered(db, 'usage_daily', filter)
    .select(['day', 'model_name', ...USAGE_SUMS])
    .groupBy(['day', 'model_name'])
    .having(sql`sum(request_count)`, '>', 0)
    .orderBy('day')
    .orderBy('model_name')
    .execute()
  return rows.map((row) => ({
    day: Number(row.day),
    model_name: String(row.model_name),
    ...toUsage(row as Summed),
  }))
}

/** The filter's usage per day that has any, oldest first. */
export async function usageByDay(db: Kysely<LogSchema>, filter: UsageFilter) {
  const rows = await filtered(db, byDaySource(filter), filter)
    .select(['day', ...USAGE_SUMS])
    .groupBy('day')
    .orderBy('day')
    .execute()
  return rows.map((row) => ({ day: Number(row.day), ...toUsage(row as Summed) }))
}

/** The filter's usage of every model (the dashboard ranks them). */
export async function usageByModel(db: Kysely<LogSchema>, filter: UsageFilter) {
  const rows = await filtered(db, byModelSource(filter), filter)
    .select(['model_name', ...USAGE_SUMS])
    .groupBy('model_name')
    .execute()
  return new Map(rows.map((row) => [String(row.model_name), toUsage(row as Summed)]))
}

/** The filter's usage of every channel, failed attempts included. */
export async function usageByChannel(db: Kysely<LogSchema>, filter: UsageFilter) {
  const rows = await filtered(db, byChannelSource(filter), filter)
    .select(['channel_id', ...USAGE_SUMS])
    .groupBy('channel_id')
    .execute()
  return new Map(rows.map((row) => [Number(row.channel_id), toUsage(row as Summed)]))
}

async function usersOf(db: Kysely<LogSchema>, table: UsageTableName, filter: UsageFilter) {
  return filtered(db, table, filter)
    .select(['user_id', ...USAGE_SUMS])
    .groupBy('user_id')
    .execute()
}

/**
 * The filter's usage of every user. A daily user table's twin by 7-day block answers the whole
 * blocks of the period, the daily table the days before and after them.
 */
export async function usageByUser(db: Kysely<LogSchema>, filter: UsageFilter) {
  const source = byUserSource(filter)
  const blocks = BLOCK_OF_DAILY[source]
  const firstBlock = Math.ceil(filter.firstDay / BLOCK_DAYS) * BLOCK_DAYS
  const afterBlocks = blockStart(filter.lastDay + 1)
  let rows: Awaited<ReturnType<typeof usersOf>>
  if (!blocks || firstBlock >= afterBlocks) rows = await usersOf(db, source, filter)
  else {
    rows = await usersOf(db, blocks, { ...filter, firstDay: firstBlock, lastDay: afterBlocks - BLOCK_DAYS })
    if (filter.firstDay < firstBlock) {
      rows.push(...(await usersOf(db, source, { ...filter, lastDay: firstBlock - 1 })))
    }
    if (afterBlocks <= filter.lastDay) {
      rows.push(...(await usersOf(db, source, { ...filter, firstDay: afterBlocks })))
    }
  }
  const users = new Map<number, DashboardUsage>()
  for (const row of rows) {
    const usage = toUsage(row as Summed)
    const sum = users.get(Number(row.user_id))
    if (!sum) users.set(Number(row.user_id), usage)
    else for (const column of Object.keys(usage) as (keyof DashboardUsage)[]) sum[column] += usage[column]
  }
  return users
}

/** Each daily user table's twin by 7-day block. */
const BLOCK_OF_DAILY: Partial<Record<UsageTableName, BlockTableName>> = Object.fromEntries(
  Object.entries(BLOCK_TABLES).map(([blocks, daily]) => [daily, blocks]),
)

/**
 * The version of each day from firstDay to lastDay (usage_daily_totals), -1 for a day without a
 * row: equal versions mean no usage row of that day changed in between.
 */
export async function dayVersions(db: Kysely<LogSchema>, firstDay: number, lastDay: number) {
  const rows = await withUsage(db)
    .selectFrom('usage_daily_totals')
    .select(['day', 'version'])
    .where('day', '>=', firstDay)
    .where('day', '<=', lastDay)
    .execute()
  const byDay = new Map(rows.map((row) => [Number(row.day), Number(row.version)]))
  const versions: number[] = []
  for (let day = firstDay; day <= lastDay; day++) versions.push(byDay.get(day) ?? -1)
  return versions
}
