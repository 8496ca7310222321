import type { AppContext } from '../../app-context.ts'
import type { RouteDefinition } from '../../http/route.ts'

export function channelRoutes(_context: AppContext): RouteDefinition[] {
  return []
}
