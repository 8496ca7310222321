import type { AppContext } from '../../app-context.ts'
import type { RouteDefinition } from '../../http/route.ts'

export function userRoutes(_context: AppContext): RouteDefinition[] {
  return []
}
