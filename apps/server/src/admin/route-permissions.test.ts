import { Role } from '@one-api/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteDefinition } from '../http/route.ts'
import { ApiClient, registerAndLogin } from '../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'
import { testDialects } from '../testing/test-databases.ts'
import { managementRoutes } from './route-table.ts'

/**
 * Generated from the route table: every management route is called as anonymous, user, admin and
 * root. Callers below the route's level must get 401 (anonymous) or, signed in, 200 with
 * `success: false` and the permission message (as one-api answers); callers at or above it must
 * never be refused for lack of permission. Path parameters point at a missing id, so
 * nothing real is changed.
 */
const LEVELS = [
  { name: 'anonymous', role: Role.Guest },
  { name: 'user', role: Role.Common },
  { name: 'admin', role: Role.Admin },
  { name: 'root', role: Role.Root },
] as const
const PERMISSION_MESSAGES = /Not signed in|Permission denied|Only the super administrator/

function concretePath(route: RouteDefinition): string {
  return route.url.replace(/:[A-Za-z_]+/g, '999999')
}

// Self-deletion would remove the caller; it runs last.
function ordered(routes: RouteDefinition[]): RouteDefinition[] {
  const isSelfDelete = (route: RouteDefinition) => route.method === 'DELETE' && route.url === '/api/user/self'
  return [...routes.filter((route) => !isSelfDelete(route)), ...routes.filter(isSelfDelete)]
}

describe.each(testDialects())('route permissions on %s', (dialect) => {
  let server: TestApp
  const cookies: Record<string, string> = {}
  beforeAll(async () => {
    server = await startTestApp(dialect)
    const cookieOf = (client: ApiClient) => (client as unknown as { cookie: string }).cookie
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    cookies.root = cookieOf(root)
    cookies.user = cookieOf(await registerAndLogin(server.baseUrl, 'permuser'))
    const admin = await registerAndLogin(server.baseUrl, 'permadmin')
    await server.context.db
      .updateTable('users')
      .set({ role: Role.Admin })
      .where('username', '=', 'permadmin')
      .execute()
    cookies.admin = cookieOf(admin)
    cookies.anonymous = ''
  })
  afterAll(async () => {
    await server?.close()
  })

  it('has a level for every route and at least the foundation routes', () => {
    const routes = managementRoutes(server.context)
    expect(routes.length).toBeGreaterThan(10)
    for (const route of routes) expect([0, 1, 10, 100]).toContain(route.access)
  })

  for (const level of LEVELS) {
    it(`enforces every route's minimum role for ${level.name}`, async () => {
      const failures: string[] = []
      for (const route of ordered(managementRoutes(server.context))) {
        const headers: Record<string, string> = {}
        if (cookies[level.name]) headers.cookie = cookies[level.name]
        let body: string | undefined
        if (route.method === 'POST' || route.method === 'PUT') {
          headers['content-type'] = 'application/json'
          body = '{}'
        }
        const response = await fetch(server.baseUrl + concretePath(route), {
          method: route.method,
          headers,
          body,
        })
        const payload = (await response.json().catch(() => ({}))) as { message?: string }
        const label = `${route.method} ${route.url} as ${level.name}: ${response.status} ${payload.message ?? ''}`
        const refusedForPermission =
          response.status === 200 && PERMISSION_MESSAGES.test(payload.message ?? '')
        if (level.role === Role.Guest && route.access > 0) {
          if (response.status !== 401) failures.push(`${label} (expected 401)`)
        } else if (level.role < route.access) {
          if (!refusedForPermission) failures.push(`${label} (expected a refusal for permission)`)
        } else if (response.status === 401 || refusedForPermission) {
          failures.push(`${label} (expected access)`)
        }
      }
      expect(failures).toEqual([])
    })
  }
})
