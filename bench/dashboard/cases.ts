import { adminDashboard, userDashboard } from '../../apps/server/src/admin/dashboard/dashboard-service.ts'
import type { AppContext } from '../../apps/server/src/app-context.ts'
import type { BenchCase } from '../log-queries/cases.ts'
import { END_TIME, FIRST_USER_ID, modelName, userName } from '../log-queries/seed.ts'

const DAY = 86_400

/**
 * Every query the dashboards run, through the functions the routes call: a user's own dashboard,
 * and the administrator's with each filter the console offers, over the default week and a month.
 */
export function dashboardCases(context: AppContext): BenchCase[] {
  const own = (name: string, userId: number): BenchCase => ({
    name: `user dashboard: ${name}`,
    run: async () => (await userDashboard(context, userId)).length,
  })
  const admin = (name: string, query: Record<string, string | number>): BenchCase => ({
    name: `admin dashboard: ${name}`,
    run: async () => {
      const data = await adminDashboard(context, query)
      return data.days.length + data.models.length + data.channels.length + data.users.length
    },
  })
  const month = { start_timestamp: END_TIME - 30 * DAY, end_timestamp: END_TIME }
  return [
    own('heavy user (user0)', FIRST_USER_ID),
    own('light user (user999)', FIRST_USER_ID + 999),
    admin('last 8 days, everyone', {}),
    admin('30 days, everyone', month),
    admin('last 8 days, heavy user', { username: userName(0) }),
    admin('30 days, heavy user', { ...month, username: userName(0) }),
    admin('last 8 days, popular model', { model_name: modelName(0) }),
    admin('30 days, popular model', { ...month, model_name: modelName(0) }),
    admin('last 8 days, rare model', { model_name: modelName(49) }),
    admin('last 8 days, popular channel', { channel: 1 }),
    admin('30 days, popular channel', { ...month, channel: 1 }),
    admin('last 8 days, model and channel', { model_name: modelName(0), channel: 1 }),
  ]
}
