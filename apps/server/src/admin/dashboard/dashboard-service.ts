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
import type { AppContext } from '../../app-context.ts'
import { dayOf } from '../../db/repositories/log-totals.ts'
import {
  topChannels,
  topModels,
  topUsers,
  type UsageFilter,
  usageByDay,
  usageByDayAndModel,
} from '../../db/repositories/usage-queries.ts'
import { badRequest } from '../../http/errors.ts'

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

/** Usage across all users for the administrator: totals, per day, and the top models, channels and users. */
export async function adminDashboard(
  context: AppContext,
  query: AdminDashboardQuery,
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
  const { logDb } = context
  const days = await usageByDay(logDb, filter)
  const totals = noUsage()
  for (const day of days) {
    for (const column of Object.keys(totals) as (keyof DashboardUsage)[]) totals[column] += day[column]
  }
  const models = await topModels(logDb, filter, DASHBOARD_TOP_ROWS)
  const channels = await topChannels(logDb, filter, DASHBOARD_TOP_ROWS)
  const users = await topUsers(logDb, filter, DASHBOARD_TOP_ROWS)
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
    days: everyDay(firstDay, lastDay, days),
    models,
    channels: channels.map((row) => ({
      ...row,
      channel_name: channelNames.get(row.channel_id) ?? '',
      error_rate: row.error_count / Math.max(1, row.request_count + row.error_count),
    })),
    users: users.map((row) => ({ ...row, username: usernames.get(row.user_id) ?? '' })),
  }
}
