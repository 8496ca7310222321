import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteDefinition } from '../http/route.ts'
import { channelBody } from '../testing/channel-fixtures.ts'
import { ApiClient } from '../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'
import { testDialects } from '../testing/test-databases.ts'
import { managementRoutes } from './route-table.ts'

/**
 * Generated from the route table: every management route is called by root with a NUL character
 * (which PostgreSQL cannot store) in one field at a time: each path parameter, each query
 * parameter a route reads, and each body field of a body that is otherwise valid (an existing
 * user, channel, token and code), so that without the refusal the write would go through.
 * Every call must be refused with the envelope naming the field, none may answer 500, and no
 * table may change.
 */
const NUL_TEXT = 'before\u0000after'

const QUERY_FIELDS = [
  'p',
  'keyword',
  'order',
  'type',
  'username',
  'token_name',
  'model_name',
  'channel',
  'start_timestamp',
  'end_timestamp',
  'target_timestamp',
  'scope',
  'model',
  'status_only',
  'turnstile',
  'ip',
]

const TABLES = ['users', 'tokens', 'channels', 'abilities', 'redemptions', 'options'] as const

interface Fixture {
  userId: number
  channelId: number
  tokenId: number
  redemptionId: number
  redemptionKey: string
}

function validBody(route: RouteDefinition, fixture: Fixture): Record<string, unknown> {
  const id = route.url.startsWith('/api/channel')
    ? fixture.channelId
    : route.url.startsWith('/api/token')
      ? fixture.tokenId
      : route.url.startsWith('/api/redemption')
        ? fixture.redemptionId
        : fixture.userId
  return {
    ...channelBody({ name: 'nul-channel', models: 'gpt-4o', group: 'default' }),
    id,
    user_id: fixture.userId,
    key: route.url === '/api/user/topup' ? fixture.redemptionKey : 'ModelRatio',
    value: '{"gpt-4o": 2}',
    quota: 10,
    remark: 'a remark',
    username: 'nulmember',
    password: 'password-456',
    display_name: 'Nul Member',
    email: 'nul@example.com',
    action: 'disable',
    aff_code: '',
    status: 2,
    remain_quota: 10,
    unlimited_quota: false,
    expired_time: -1,
    subnet: '',
    count: 1,
    model_mapping: '',
    system_prompt: '',
    config: '{}',
  }
}

function concretePath(route: RouteDefinition, fixture: Fixture, nulParameter?: string): string {
  return route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    if (name === nulParameter) return `1${encodeURIComponent(NUL_TEXT)}`
    return String(validBody(route, fixture).id)
  })
}

async function snapshot(server: TestApp) {
  const tables: Record<string, unknown[]> = {}
  for (const table of TABLES) tables[table] = await server.context.db.selectFrom(table).selectAll().execute()
  tables.logs = await server.context.logDb.selectFrom('logs').selectAll().orderBy('id').execute()
  return JSON.parse(
    JSON.stringify(tables, (_key, value) => (typeof value === 'bigint' ? String(value) : value)),
  )
}

describe.each(testDialects())('NUL characters on every management route, on %s', (dialect) => {
  let server: TestApp
  let root: ApiClient
  let fixture: Fixture
  beforeAll(async () => {
    server = await startTestApp(dialect)
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    const created = await root.post('/api/user/', { username: 'nulmember', password: 'password-123' })
    expect(created.body.success).toBe(true)
    const member = await server.context.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'nulmember')
      .executeTakeFirstOrThrow()
    expect((await root.post('/api/channel/', channelBody())).body.success).toBe(true)
    const channel = await server.context.db.selectFrom('channels').select('id').executeTakeFirstOrThrow()
    const token = (await root.post('/api/token/', { name: 'nul-token', unlimited_quota: true })).body.data
    const codes = await root.post('/api/redemption/', { name: 'nul-code', quota: 5, count: 1 })
    const code = await server.context.db.selectFrom('redemptions').select('id').executeTakeFirstOrThrow()
    fixture = {
      userId: member.id,
      channelId: channel.id,
      tokenId: token.id,
      redemptionId: code.id,
      redemptionKey: codes.body.data[0],
    }
  })
  afterAll(async () => {
    await server?.close()
  })

  it('refuses a NUL in any field of any route, names the field and changes nothing', async () => {
    const before = await snapshot(server)
    const failures: string[] = []
    let calls = 0
    const expectRefused = async (route: RouteDefinition, field: string, path: string, body?: unknown) => {
      calls++
      const response = await root.request(route.method, path, body === undefined ? {} : { json: body })
      const label = `${route.method} ${route.url} with a NUL in ${field}: ${response.status} ${JSON.stringify(response.body)}`
      const named = typeof response.body?.message === 'string' && response.body.message.includes(`"${field}"`)
      if (response.status !== 200 || response.body?.success !== false || !named) failures.push(label)
    }
    // Signing out would end the walk's session; it goes last.
    const signsOut = (route: RouteDefinition) => route.url === '/api/user/logout'
    const routes = managementRoutes(server.context)
    for (const route of [...routes.filter((route) => !signsOut(route)), ...routes.filter(signsOut)]) {
      for (const [, name] of route.url.matchAll(/:([A-Za-z_]+)/g)) {
        await expectRefused(route, name, concretePath(route, fixture, name))
      }
      for (const name of QUERY_FIELDS) {
        const separator = route.url.includes('?') ? '&' : '?'
        const path = `${concretePath(route, fixture)}${separator}${name}=${encodeURIComponent(NUL_TEXT)}`
        await expectRefused(route, name, path)
      }
      if (route.method !== 'POST' && route.method !== 'PUT') continue
      const body = validBody(route, fixture)
      for (const name of Object.keys(body)) {
        await expectRefused(route, name, concretePath(route, fixture), { ...body, [name]: NUL_TEXT })
      }
      await expectRefused(route, 'models.1', concretePath(route, fixture), {
        ...body,
        models: ['gpt-4o', NUL_TEXT],
      })
    }
    expect(failures).toEqual([])
    expect(calls).toBeGreaterThan(500)
    expect(await snapshot(server)).toEqual(before)
  }, 300_000)
})
