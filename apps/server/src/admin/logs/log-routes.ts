import { ITEMS_PER_PAGE, MAX_RECENT_ITEMS, Role } from '@one-api/contracts'
import { deleteLogsQuerySchema, logQuerySchema, logSearchQuerySchema } from '@one-api/contracts/log'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../../app-context.ts'
import { deleteLogsBefore, listLogs, searchLogs, sumConsumeLogs } from '../../db/repositories/log-queries.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { toLogFilter, toLogView } from './log-view.ts'

/**
 * Usage logs: admins read everyone's, every user reads their own (`/self`, pinned to their user
 * id), and only the super administrator deletes. Logs live in `context.logDb`.
 */
export function logRoutes(context: AppContext): RouteDefinition[] {
  const { logDb } = context

  /** `self` pins the filter to the caller; otherwise the route is admin-only and sees everyone. */
  const list = (self: boolean) => async (request: FastifyRequest) => {
    const query = parseInput(logQuerySchema, request.query)
    const filter = toLogFilter(query, self ? currentUser(request).id : undefined)
    const rows = await listLogs(logDb, filter, (query.p ?? 0) * ITEMS_PER_PAGE, ITEMS_PER_PAGE)
    return ok(rows.map(toLogView))
  }
  const stat = (self: boolean) => async (request: FastifyRequest) => {
    const query = parseInput(logQuerySchema, request.query)
    return ok(await sumConsumeLogs(logDb, toLogFilter(query, self ? currentUser(request).id : undefined)))
  }
  const search = (self: boolean) => async (request: FastifyRequest) => {
    const { keyword } = parseInput(logSearchQuerySchema, request.query)
    const rows = await searchLogs(
      logDb,
      keyword,
      self ? currentUser(request).id : undefined,
      MAX_RECENT_ITEMS,
    )
    return ok(rows.map(toLogView))
  }

  return [
    { method: 'GET', url: '/api/log/', access: Role.Admin, handler: list(false) },
    { method: 'GET', url: '/api/log/stat', access: Role.Admin, handler: stat(false) },
    { method: 'GET', url: '/api/log/search', access: Role.Admin, handler: search(false) },
    { method: 'GET', url: '/api/log/self', access: Role.Common, handler: list(true) },
    { method: 'GET', url: '/api/log/self/', access: Role.Common, handler: list(true) },
    { method: 'GET', url: '/api/log/self/stat', access: Role.Common, handler: stat(true) },
    { method: 'GET', url: '/api/log/self/search', access: Role.Common, handler: search(true) },
    {
      method: 'DELETE',
      url: '/api/log/',
      access: Role.Root,
      handler: async (request) => {
        const { target_timestamp } = parseInput(deleteLogsQuerySchema, request.query)
        return ok(await deleteLogsBefore(logDb, target_timestamp))
      },
    },
  ]
}
