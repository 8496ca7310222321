import type { RoleValue } from '@one-api/contracts/roles'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { UserRow } from '../db/repositories/users-repository.ts'

/**
 * Minimum role of a route: Role.Guest anyone, Role.Common any signed-in user, then Role.Admin and
 * Role.Root. The route table (admin/route-table.ts) lists every management route with its level; the server enforces it and
 * the permission test walks the same table, so no route can be added without a level.
 */
export type AccessLevel = RoleValue

export type RateLimitClass = 'api' | 'critical'

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  access: AccessLevel
  /** Login, registration and verification routes get the stricter limit on top of the API one. */
  rateLimit?: 'critical'
  /** A GET that changes something (rotating the access token, running channel tests). */
  changesState?: true
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, fresh from the database, on routes above Role.Guest. */
    user?: UserRow
  }
  interface FastifyContextConfig {
    access?: AccessLevel
    rateLimit?: 'critical'
    changesState?: true
  }
}

export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new Error('route declared without authentication')
  return request.user
}

/** `{success:true, message:'', data}`: the envelope of every successful management reply. */
export function ok<T>(data?: T, message = ''): { success: true; message: string; data?: T } {
  return data === undefined ? { success: true, message } : { success: true, message, data }
}

export function registerRoutes(app: FastifyInstance, routes: RouteDefinition[]): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      config: { access: route.access, rateLimit: route.rateLimit, changesState: route.changesState },
      handler: route.handler,
    })
  }
}
