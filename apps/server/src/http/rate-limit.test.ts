import { Redis } from 'ioredis'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiClient } from '../testing/http-client.ts'
import { startTestApp, type TestApp } from '../testing/test-app.ts'
import { REDIS_URL } from '../testing/test-databases.ts'

const backends: Array<[string, Record<string, string>]> = [['memory', {}]]
if (REDIS_URL) backends.push(['redis', { REDIS_CONN_STRING: REDIS_URL }])

describe.each(backends)('per-IP rate limits (%s)', (backend, env) => {
  let servers: TestApp[] = []
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()))
    servers = []
  })

  async function start(limits: Record<string, string>, share?: TestApp) {
    if (backend === 'redis') {
      const redis = new Redis(REDIS_URL!)
      await redis.del('rateLimit:CT127.0.0.1', 'rateLimit:GA127.0.0.1', 'rateLimit:GW127.0.0.1')
      redis.disconnect()
    }
    const server = await startTestApp('sqlite', { ...env, ...limits }, { shareDatabaseWith: share })
    servers.push(server)
    return server
  }

  it('limits sign-in attempts more strictly than the rest of the API, with 429 and a message', async () => {
    const server = await start({ CRITICAL_RATE_LIMIT: '3', GLOBAL_API_RATE_LIMIT: '100' })
    const client = new ApiClient(server.baseUrl)
    const statuses: number[] = []
    for (let attempt = 0; attempt < 4; attempt++) {
      statuses.push(
        (await client.post('/api/user/login', { username: 'root', password: 'wrong-password' })).status,
      )
    }
    // A wrong password is refused with 200 and success:false, as one-api answers it.
    expect(statuses).toEqual([200, 200, 200, 429])
    const rejected = await client.post('/api/user/login', { username: 'root', password: 'wrong-password' })
    expect(rejected.body).toEqual({ success: false, message: 'Too many requests, please try again later' })
    expect(rejected.headers.get('retry-after')).toBe('1200')
    expect((await client.get('/api/status')).status).toBe(200)
  })

  it('limits the management API and the web console separately', async () => {
    const server = await start({ GLOBAL_API_RATE_LIMIT: '5', GLOBAL_WEB_RATE_LIMIT: '3' })
    const client = new ApiClient(server.baseUrl)
    const api: number[] = []
    for (let attempt = 0; attempt < 6; attempt++) api.push((await client.get('/api/status')).status)
    expect(api).toEqual([200, 200, 200, 200, 200, 429])
    const web: number[] = []
    for (let attempt = 0; attempt < 4; attempt++) web.push((await client.get('/some/page')).status)
    expect(web.slice(0, 3).every((status) => status !== 429)).toBe(true)
    expect(web[3]).toBe(429)
  })

  it.runIf(backend === 'redis')('shares one count between nodes', async () => {
    const first = await start({ GLOBAL_API_RATE_LIMIT: '4' })
    const second = await start({ GLOBAL_API_RATE_LIMIT: '4' }, first)
    const statuses: number[] = []
    for (const server of [first, second, first, second, first]) {
      statuses.push((await new ApiClient(server.baseUrl).get('/api/status')).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429])
  })
})
