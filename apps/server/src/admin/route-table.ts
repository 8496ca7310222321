import type { AppContext } from '../app-context.ts'
import type { RouteDefinition } from '../http/route.ts'
import { accountRoutes } from './account/account-routes.ts'
import { selfRoutes } from './account/self-routes.ts'
import { optionRoutes } from './options/option-routes.ts'
import { statusRoutes } from './status/status-routes.ts'

/**
 * Every management route with its minimum role. The server registers exactly this list and the
 * permission test (route-permissions.test.ts) calls every entry as anonymous, user, admin and root.
 */
export function managementRoutes(context: AppContext): RouteDefinition[] {
  return [
    ...statusRoutes(context),
    ...accountRoutes(context),
    ...selfRoutes(context),
    ...optionRoutes(context),
  ]
}
