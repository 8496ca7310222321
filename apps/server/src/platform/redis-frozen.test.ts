import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../testing/eventually.ts'
import { ApiClient } from '../testing/http-client.ts'
import { REDIS_SERVER_MISSING, RedisProcess } from '../testing/redis-process.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'

/**
 * A Redis that keeps its connections open but answers nothing (frozen, overloaded, a network that
 * drops packets): nothing may hang on it, and what could not be announced meanwhile reaches the
 * other nodes once it answers again, though no connection was ever lost.
 */
describe.skipIf(REDIS_SERVER_MISSING)('a Redis that stops answering', () => {
  let redis: RedisProcess
  let a: TestApp
  let b: TestApp
  let rootA: ApiClient
  let rootB: ApiClient
  const systemName = async (client: ApiClient) => (await client.get('/api/status')).body.data.system_name

  beforeAll(async () => {
    redis = await RedisProcess.start()
    // Limits on, so the console's requests go through the limiter (which needs Redis).
    const environment = {
      REDIS_CONN_STRING: redis.url(6),
      GLOBAL_API_RATE_LIMIT: '1000',
      GLOBAL_WEB_RATE_LIMIT: '1000',
      CRITICAL_RATE_LIMIT: '1000',
    }
    a = await startTestApp('sqlite', environment)
    b = await startTestApp('sqlite', environment, { shareDatabaseWith: a })
    rootA = new ApiClient(a.baseUrl)
    await rootA.login('root', ROOT_PASSWORD)
    rootB = new ApiClient(b.baseUrl)
    await rootB.login('root', ROOT_PASSWORD)
  })
  afterAll(async () => {
    redis?.thaw()
    await b?.close()
    await a?.close()
    await redis?.stop()
  })

  it('answers the console at once, commits changes, and announces them once Redis answers', async () => {
    redis.freeze()
    try {
      const started = Date.now()
      // It hung for as long as Redis did (90 s and more): the limiter's command never returned.
      expect((await fetch(`${a.baseUrl}/api/status`)).status).toBe(200)
      const saved = await rootA.put('/api/option/', { key: 'SystemName', value: 'Frozen Redis' })
      expect(saved.status).toBe(200)
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(await systemName(rootA)).toBe('Frozen Redis')
    } finally {
      redis.thaw()
    }
    // B's connection never dropped: it learns of the change once Redis answers again (the
    // announcement that timed out was still delivered; had it been lost, A asks every node to
    // resync every 5 s until it can), not at its SYNC_FREQUENCY re-read 10 minutes later.
    await eventually(async () => (await systemName(rootB)) === 'Frozen Redis', 15_000)
  }, 30_000)
})
