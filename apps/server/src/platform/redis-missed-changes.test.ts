import { createServer, type Server } from 'node:http'
import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../testing/eventually.ts'
import { ApiClient } from '../testing/http-client.ts'
import { REDIS_SERVER_MISSING, RedisProcess } from '../testing/redis-process.ts'
import { TcpCut } from '../testing/tcp-cut.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'
import { testDialects } from '../testing/test-databases.ts'

/**
 * Two nodes, A and B, sharing a database and a Redis server of this test's own. B reaches Redis
 * through a forwarder the test can cut (a network partition, or a Redis blip, for B alone); the
 * server itself is also stopped and restarted (an outage for both). What B misses while it cannot
 * hear A's announcements must be made up when it can again, and nothing may fail on A meanwhile.
 */
describe.skipIf(REDIS_SERVER_MISSING).each(testDialects())(
  'changes missed during a Redis outage on %s',
  (dialect) => {
    let redis: RedisProcess
    let partition: TcpCut
    let mock: MockUpstream
    let pusher: Server
    const pushed: Array<{ title: string }> = []
    let a: TestApp
    let b: TestApp
    let rootA: ApiClient
    let rootB: ApiClient
    // Limits on, so the console's requests go through the limiter (which needs Redis).
    const limits = {
      GLOBAL_API_RATE_LIMIT: '1000',
      GLOBAL_WEB_RATE_LIMIT: '1000',
      CRITICAL_RATE_LIMIT: '1000',
    }

    beforeAll(async () => {
      redis = await RedisProcess.start()
      partition = await TcpCut.start(redis.port)
      mock = await startMockUpstream({ apiKeys: ['good-key'] })
      pusher = createServer((request, response) => {
        let body = ''
        request.on('data', (chunk) => {
          body += chunk
        })
        request.on('end', () => {
          pushed.push(JSON.parse(body))
          response.end('{"success":true}')
        })
      })
      await new Promise<void>((resolve) => pusher.listen(0, '127.0.0.1', resolve))
      a = await startTestApp(dialect, { ...limits, REDIS_CONN_STRING: redis.url(5) })
      b = await startTestApp(
        dialect,
        {
          ...limits,
          REDIS_CONN_STRING: `redis://127.0.0.1:${partition.port}/5`,
          CHANNEL_DISABLE_FAILURE_COUNT: '1',
        },
        { shareDatabaseWith: a },
      )
      rootA = new ApiClient(a.baseUrl)
      await rootA.login('root', ROOT_PASSWORD)
      rootB = new ApiClient(b.baseUrl)
      await rootB.login('root', ROOT_PASSWORD)
      const pusherPort = (pusher.address() as { port: number }).port
      for (const [key, value] of [
        ['AutomaticDisableChannelEnabled', 'true'],
        ['MessagePusherAddress', `http://127.0.0.1:${pusherPort}/push`],
      ]) {
        expect((await rootA.put('/api/option/', { key, value })).status).toBe(200)
      }
      await eventually(async () => (await systemOption(b, 'AutomaticDisableChannelEnabled')) === 'true')
    })

    // A failed test must not leave B cut off for the next one.
    afterEach(() => partition?.restore())

    afterAll(async () => {
      await b?.close()
      await a?.close()
      await partition?.close()
      await redis?.stop()
      await mock?.close()
      pusher?.close()
    })

    async function createToken(name: string): Promise<{ id: number; key: string }> {
      const response = await rootA.post('/api/token/', { name, remain_quota: 0, unlimited_quota: true })
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      return { id: response.body.data.id, key: response.body.data.key }
    }

    async function createChannel(name: string, models: string[], key = 'good-key'): Promise<number> {
      const body = { name, type: 50, key, base_url: `${mock.url}/v1`, models, group: ['default'] }
      expect((await rootA.post('/api/channel/', body)).status).toBe(200)
      return (await rootA.get(`/api/channel/search?keyword=${name}`)).body.data[0].id
    }

    /** What B's relay lets the token do: undefined when it refuses the token, else the models listed. */
    async function modelsOnB(token: string): Promise<string[] | undefined> {
      const response = await fetch(`${b.baseUrl}/v1/models`, {
        headers: { authorization: `Bearer ${token}` },
      })
      if (response.status === 401) return undefined
      expect(response.status).toBe(200)
      return ((await response.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id)
    }

    async function systemName(server: TestApp): Promise<string> {
      return (await new ApiClient(server.baseUrl).get('/api/status')).body.data.system_name
    }

    async function systemOption(server: TestApp, key: string): Promise<string | undefined> {
      const client = server === b ? rootB : rootA
      const list = (await client.get('/api/option/')).body.data as Array<{ key: string; value: string }>
      return list.find((entry) => entry.key === key)?.value
    }

    it('applies on B what A changed while B was cut off from Redis, once B reconnects', async () => {
      const disabled = await createToken('missed-disable')
      const kept = await createToken('missed-keep')
      const channel = await createChannel('missed-channel', ['missed-model'])
      // B hears of the channel and caches both tokens.
      await eventually(async () => (await modelsOnB(kept.key))?.includes('missed-model') === true)
      expect(await modelsOnB(disabled.key)).toBeDefined()

      partition.cut()
      await sleep(100)
      const name = `Renamed while B was away ${Date.now()}`
      const status = await rootA.put('/api/token/?status_only=true', { id: disabled.id, status: 2 })
      expect(status.status).toBe(200)
      expect((await rootA.put('/api/option/', { key: 'SystemName', value: name })).status).toBe(200)
      expect((await rootA.put('/api/channel/', { id: channel, status: 2 })).status).toBe(200)
      // B heard none of it (the premise of this test).
      await sleep(300)
      expect(await modelsOnB(disabled.key)).toBeDefined()
      expect(await systemName(b)).not.toBe(name)
      expect(await modelsOnB(kept.key)).toContain('missed-model')

      partition.restore()
      await eventually(async () => (await modelsOnB(disabled.key)) === undefined)
      await eventually(async () => (await systemName(b)) === name)
      await eventually(async () => (await modelsOnB(kept.key))?.includes('missed-model') === false)
    })

    it('keeps the console and the management API working while Redis is down, and catches up after', async () => {
      const token = await createToken('outage-token')
      const watcher = await createToken('outage-watcher')
      const channel = await createChannel('outage-channel', ['outage-model'], 'bad-key')
      await eventually(async () => (await modelsOnB(watcher.key))?.includes('outage-model') === true)
      expect(await modelsOnB(token.key)).toBeDefined()
      pushed.length = 0

      const name = `Renamed during the outage ${Date.now()}`
      await redis.stop()
      try {
        await sleep(100)
        // The channel's key is rejected: the test disables it (status 3) and root is told, although
        // the change cannot be announced.
        expect((await rootA.get(`/api/channel/test/${channel}`)).body.success).toBe(false)
        expect((await rootA.get(`/api/channel/${channel}`)).body.data.status).toBe(3)
        await eventually(async () =>
          pushed.some((push) => /outage-channel .* has been disabled/.test(push.title)),
        )
        // The console: reading, signing in, and committed changes whose announcement cannot be sent.
        expect((await new ApiClient(a.baseUrl).get('/api/status')).status).toBe(200)
        expect((await new ApiClient(a.baseUrl).get('/')).status).not.toBe(500)
        const client = new ApiClient(a.baseUrl)
        expect((await client.login('root', ROOT_PASSWORD)).status).toBe(200)
        expect((await client.get('/api/user/self')).status).toBe(200)
        const disable = await client.put('/api/token/?status_only=true', { id: token.id, status: 2 })
        expect(disable.status).toBe(200)
        expect((await client.put('/api/option/', { key: 'SystemName', value: name })).status).toBe(200)
        // A applied its own changes at once.
        expect(await systemName(a)).toBe(name)
      } finally {
        await redis.restart()
      }
      await eventually(async () => (await modelsOnB(token.key)) === undefined)
      await eventually(async () => (await systemName(b)) === name)
      await eventually(async () => (await modelsOnB(watcher.key))?.includes('outage-model') === false)
    })

    it('reloads B’s routing when its own monitor finds the channel already disabled by A', async () => {
      const token = await createToken('monitor-token')
      const channel = await createChannel('monitor-channel', ['gpt-4o-mini'], 'bad-key')
      await eventually(async () => (await modelsOnB(token.key))?.includes('gpt-4o-mini') === true)

      partition.cut()
      await sleep(100)
      expect((await rootA.get(`/api/channel/test/${channel}`)).body.success).toBe(false)
      expect((await rootA.get(`/api/channel/${channel}`)).body.data.status).toBe(3)
      // B still routes to it, and its key is rejected there too: B's monitor tries to disable it.
      expect(await modelsOnB(token.key)).toContain('gpt-4o-mini')
      const relayed = await fetch(`${b.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(relayed.status).toBeGreaterThanOrEqual(400)
      await relayed.arrayBuffer()
      // Still cut off from Redis: only the monitor's finding can have told B.
      await eventually(async () => (await modelsOnB(token.key))?.includes('gpt-4o-mini') === false)
    })
  },
)

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))
