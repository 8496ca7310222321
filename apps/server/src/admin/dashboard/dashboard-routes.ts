import { Role } from '@one-api/contracts'
import { adminDashboardQuerySchema } from '@one-api/contracts/dashboard'
import type { AppContext } from '../../app-context.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { adminDashboard, userDashboard } from './dashboard-service.ts'

/**
 * Usage dashboards, read from the usage tables (never the logs): every user's own last eight
 * days by day and model, as one-api serves it, and the administrator's view across all users.
 */
export function dashboardRoutes(context: AppContext): RouteDefinition[] {
  return [
    {
      method: 'GET',
      url: '/api/user/dashboard',
      access: Role.Common,
      handler: async (request) => ok(await userDashboard(context, currentUser(request).id)),
    },
    {
      method: 'GET',
      url: '/api/log/dashboard',
      access: Role.Admin,
      handler: async (request) =>
        ok(await adminDashboard(context, parseInput(adminDashboardQuerySchema, request.query))),
    },
  ]
}
