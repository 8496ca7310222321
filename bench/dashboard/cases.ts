import { adminDashboard, userDashboard } from '../../apps/server/src/admin/dashboard/dashboard-service.ts'
import { FinishedDaysCache } from '../../apps/server/src/admin/dashboard/period-usage.ts'
import type { AppContext } from '../../apps/server/src/app-context.ts'
import { END_TIME, FIRST_USER_ID, modelName, userName } from '../log-queries/seed.ts'

const DAY = 86_400

export interface DashboardCase {
  name: string
  /** One answer with an empty cache of finished days; returns how many rows it gave. */
  uncached(): Promise<number>
  /** One answer with the server's cache. */
  cached(): Promise<number>
}

/**
 * Every query the dashboards run, through the functions the routes call: a user's own dashboard
 * (not cached: one user's rows), and the administrator's with each filter the console offers,
 * over the default week and a month.
 */
export function dashboardCases(context: AppContext): DashboardCase[] {
  const own = (name: string, userId: number): DashboardCase => {
    const run = async () => (await userDashboard(context, userId)).length
    return { name: `user dashboard: ${name}`, uncached: run, cached: run }
  }
  const admin = (name: string, query: Record<string, string | number>): DashboardCase => {
    const run = async (cache?: FinishedDaysCache) => {
      const data = await adminDashboard(context, query, cache)
      return data.days.length + data.models.length + data.channels.length + data.users.length
    }
    return {
      name: `admin dashboard: ${name}`,
      uncached: () => run(new FinishedDaysCache()),
      cached: () => run(),
    }
  }
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
    admin('30 days, model and channel', { ...month, model_name: modelName(0), channel: 1 }),
  ]
}
