import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../../testing/eventually.ts'
import { ApiClient } from '../../testing/http-client.ts'
import { REDIS_SERVER_MISSING, RedisProcess } from '../../testing/redis-process.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'
import { testDialects } from '../../testing/test-databases.ts'

/**
 * Two nodes behind a load balancer, sharing a database and a Redis server (a server of this test's
 * own: the counts are keyed by channel id, which every fresh test database starts again at 1). A
 * channel's key failures count towards CHANNEL_DISABLE_FAILURE_COUNT on whichever node they happen.
 */
describe.skipIf(REDIS_SERVER_MISSING).each(testDialects())(
  'channel failures counted across nodes on %s',
  (dialect) => {
    let redis: RedisProcess
    let mock: MockUpstream
    let a: TestApp
    let b: TestApp
    let root: ApiClient

    beforeAll(async () => {
      redis = await RedisProcess.start()
      mock = await startMockUpstream({ apiKeys: ['good-key'] })
      const environment = { REDIS_CONN_STRING: redis.url(0), CHANNEL_DISABLE_FAILURE_COUNT: '2' }
      a = await startTestApp(dialect, environment)
      b = await startTestApp(dialect, environment, { shareDatabaseWith: a })
      root = new ApiClient(a.baseUrl)
      await root.login('root', ROOT_PASSWORD)
      const enabled = await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' })
      expect(enabled.status).toBe(200)
    })
    afterAll(async () => {
      await b?.close()
      await a?.close()
      await redis?.stop()
      await mock?.close()
    })

    const ask = (node: TestApp, key: string) =>
      fetch(`${node.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      })
    const channelStatus = async (id: number) => (await root.get(`/api/channel/${id}`)).body.data.status

    it('disables a channel once its failures on all nodes together reach the count', async () => {
      const token = await root.post('/api/token/', { name: 'shared', remain_quota: 0, unlimited_quota: true })
      const key = token.body.data.key as string
      const body = {
        name: 'dead-key',
        type: 50,
        key: 'bad-key',
        base_url: `${mock.url}/v1`,
        models: ['gpt-4o-mini'],
        group: ['default'],
      }
      expect((await root.post('/api/channel/', body)).status).toBe(200)
      const id = (await root.get('/api/channel/search?keyword=dead-key')).body.data[0].id as number
      // B has heard of the channel (and, before it, of the option).
      await eventually(async () => {
        const listed = await fetch(`${b.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
        return ((await listed.json()) as { data: Array<{ id: string }> }).data.some(
          (model) => model.id === 'gpt-4o-mini',
        )
      })
      const refused = async (node: TestApp) => {
        const response = await ask(node, key)
        expect(response.status).toBe(503)
        // The refused call is the gateway's business: not even its upstream id is passed on.
        expect(response.headers.get('x-request-id')).toBeNull()
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
          'channel_unavailable',
        )
      }

      // One key failure on each node: two in all.
      await refused(b)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await channelStatus(id)).toBe(1)
      await refused(a)
      await eventually(async () => (await channelStatus(id)) === 3)
    })
  },
)
