import {
  type AdminDashboard,
  type AdminDashboardQuery,
  DASHBOARD_DEFAULT_DAYS,
  DASHBOARD_MAX_DAYS,
  DASHBOARD_TOP_ROWS,
  type DashboardUsage,
  dayLabel,
  type UserDashboardRow,
} from '@one-api/contracts/dashboard'
import type { Kysely } from 'kysely'
import type { AppContext } from '../../app-context.ts'
import { dayOf } from '../../db/repositories/log-totals.ts'
import { type UsageFilter, usageByDayAndModel } from '../../db/repositories/usage-queries.ts'
import type { LogSchema } from '../../db/schema.ts'
import { badRequest } from '../../http/errors.ts'
import { FinishedDaysCache, periodUsage } from './period-usage.ts'

const today = () => dayOf(Math.floor(Date.now() / 1000))

/** One-api's dashboard: the caller's consume usage of today and the seven days before, by day and model. */
export async function userDashboard(context: AppContext, userId: number): Promise<UserDashboardRow[]> {
  const lastDay = today()
  const rows = await usageByDayAndModel(context.logDb, {
    userId,
    firstDay: lastDay - DASHBOARD_DEFAULT_DAYS,
    lastDay,
  })
  return rows.map((row) => ({
    Day: dayLabel(row.day),
    ModelName: row.model_name,
    RequestCount: row.request_count,
    Quota: row.quota,
    PromptTokens: row.prompt_tokens,
    CompletionTokens: row.completion_tokens,
  }))
}

/** The administrator's filters as day numbers and ids; undefined when the username is unknown. */
async function toUsageFilter(
  context: AppContext,
  query: AdminDashboardQuery,
): Promise<UsageFilter | undefined> {
  const lastDay = query.end_timestamp ? dayOf(query.end_timestamp) : today()
  const firstDay = query.start_timestamp ? dayOf(query.start_timestamp) : lastDay - DASHBOARD_DEFAULT_DAYS
  if (lastDay - firstDay + 1 > DASHBOARD_MAX_DAYS) {
    throw badRequest(`The period can be at most ${DASHBOARD_MAX_DAYS} days`)
  }
  const filter: UsageFilter = {
    firstDay,
    lastDay,
    modelName: query.model_name,
    channelId: query.channel || undefined,
  }
  if (!query.username) return filter
  const user = await context.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', query.username)
    .executeTakeFirst()
  return user ? { ...filter, userId: user.id } : undefined
}

const noUsage = (): DashboardUsage => ({
  request_count: 0,
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  error_count: 0,
})

/** Every day of the period, zeros where the usage tables have no row. */
function everyDay(firstDay: number, lastDay: number, rows: (DashboardUsage & { day: number })[]) {
  const byDay = new Map(rows.map((row) => [row.day, row]))
  const days: AdminDashboard['days'] = []
  for (let day = firstDay; day <= lastDay; day++) {
    const { day: _, ...usage } = byDay.get(day) ?? { day, ...noUsage() }
    days.push({ day: dayLabel(day), ...usage })
  }
  return days
}

async function namesOf(context: AppContext, table: 'users' | 'channels', ids: number[]) {
  if (ids.length === 0) return new Map<number, string>()
  const rows =
    table === 'users'
      ? await context.db
          .selectFrom('users')
          .select(['id', 'username as name'])
          .where('id', 'in', ids)
          .execute()
      : await context.db.selectFrom('channels').select(['id', 'name']).where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [row.id, row.name]))
}

/** One cache of finished days per log database (each node keeps its own; see FinishedDaysCache). */
const caches = new WeakMap<Kysely<LogSchema>, FinishedDaysCache>()

function cacheOf(db: Kysely<LogSchema>): FinishedDaysCache {
  let cache = caches.get(db)
  if (!cache) {
    cache = new FinishedDaysCache()
    caches.set(db, cache)
  }
  return cache
}

/** The `limit` largest entries by `measure`, ties by key (ascending). */
function top<Key extends string | number>(
  entries: Map<Key, DashboardUsage>,
  measure: (usage: DashboardUsage) => number,
  limit: number,
): [Key, DashboardUsage][] {
  return [...entries]
    .sort(([keyA, a], [keyB, b]) => measure(b) - measure(a) || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0))
    .slice(0, limit)
}

/**
 * Usage across all users for the administrator: totals, per day, the top models and users by
 * quota, and the top channels by attempts (served plus failed). `cache` is the log database's
 * own unless given (the benchmark passes an empty one to time a first read).
 */
export async function adminDashboard(
  context: AppContext,
  query: AdminDashboardQuery,
  cache: FinishedDaysCache = cacheOf(context.logDb),
): Promise<AdminDashboard> {
  const lastDayDefault = query.end_timestamp ? dayOf(query.end_timestamp) : today()
  const filter = await toUsageFilter(context, query)
  const firstDay = filter?.firstDay ?? lastDayDefault - DASHBOARD_DEFAULT_DAYS
  const lastDay = filter?.lastDay ?? lastDayDefault
  const period = { start_day: dayLabel(firstDay), end_day: dayLabel(lastDay) }
  if (!filter) {
    return {
      ...period,
      totals: noUsage(),
      days: everyDay(firstDay, lastDay, []),
      models: [],
      channels: [],
      users: [],
    }
  }
  const usage = await periodUsage(context.logDb, filter, today(), cache)
  const totals = noUsage()
  for (const day of usage.days) {
    for (const column of Object.keys(totals) as (keyof DashboardUsage)[]) totals[column] += day[column]
  }
  const models = top(usage.models, (row) => row.quota, DASHBOARD_TOP_ROWS).map(([model_name, row]) => ({
    model_name,
    ...row,
  }))
  const attempts = (row: DashboardUsage) => row.request_count + row.error_count
  const channels = top(usage.channels, attempts, DASHBOARD_TOP_ROWS).map(([channel_id, row]) => ({
    channel_id,
    ...row,
  }))
  const users = top(usage.users, (row) => row.quota, DASHBOARD_TOP_ROWS).map(([user_id, row]) => ({
    user_id,
    ...row,
  }))
  const channelNames = await namesOf(
    context,
    'channels',
    channels.map((row) => row.channel_id),
  )
  const usernames = await namesOf(
    context,
    'users',
    users.map((row) => row.user_id),
  )
  return {
    ...period,
    totals,
    days: everyDay(firstDay, lastDay, usage.days),
    models,
    channels: channels.map((row) => ({
      ...row,
      channel_name: channelNames.get(row.channel_id) ?? '',
      error_rate: row.error_count / Math.max(1, row.request_count + row.error_count),
    })),
    users: users.map((row) => ({ ...row, username: usernames.get(row.user_id) ?? '' })),
  }
}
