import type { AppContext } from '../../app-context.ts'
import type { RouteDefinition } from '../../http/route.ts'
import { userReadRoutes } from './user-read-routes.ts'
import { userWriteRoutes } from './user-write-routes.ts'

/** User administration; the account's own routes live in admin/account. */
export function userRoutes(context: AppContext): RouteDefinition[] {
  return [...userReadRoutes(context), ...userWriteRoutes(context)]
}
