import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from '../../../../../tools/mock-upstream/src/server.ts'
import { ApiClient, outcome, REFUSED } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'

const QUOTED_KEY = 'sk-wrong-key-quoted-77'

describe('channel test, automatic disabling and enabling, balance', () => {
  let server: TestApp
  let mock: MockUpstream
  let billing: Server
  let billingUrl: string
  let root: ApiClient

  beforeAll(async () => {
    mock = await startMockUpstream({ apiKeys: ['good-key', QUOTED_KEY] })
    billing = createServer((request, response) => {
      response.setHeader('content-type', 'application/json')
      if (request.url?.startsWith('/v1/dashboard/billing/subscription')) {
        response.end(JSON.stringify({ hard_limit_usd: 120, has_payment_method: true }))
      } else if (request.url?.startsWith('/v1/dashboard/billing/usage')) {
        response.end(JSON.stringify({ total_usage: 2050 }))
      } else {
        response.statusCode = 404
        response.end('{}')
      }
    })
    await new Promise<void>((resolve) => billing.listen(0, '127.0.0.1', resolve))
    billingUrl = `http://127.0.0.1:${(billing.address() as AddressInfo).port}`
    server = await startTestApp('sqlite', { CHANNEL_DISABLE_FAILURE_COUNT: '2' })
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
  })
  afterAll(async () => {
    await server?.close()
    await mock?.close()
    billing?.close()
  })

  async function createChannel(
    name: string,
    key: string,
    extra: Record<string, unknown> = {},
  ): Promise<number> {
    const created = await root.post('/api/channel/', {
      name,
      type: 50,
      key,
      base_url: `${mock.url}/v1`,
      models: ['gpt-4o-mini', 'gpt-3.5-turbo'],
      group: ['default'],
      ...extra,
    })
    expect(created.status).toBe(200)
    const list = await root.get('/api/channel/search?keyword=' + encodeURIComponent(name))
    return list.body.data[0].id
  }
  /** One chat request through channel `id`, pinned by root's token `key` (`<key>-<channel id>`). */
  const relayPinned = (key: string, id: number) =>
    fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}-${id}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    })

  const statusOf = async (id: number): Promise<number> =>
    (await root.get(`/api/channel/${id}`)).body.data.status

  /** The channel's status once it left `from` (disabling follows the failure's answer), or after a second. */
  async function statusAfterLeaving(id: number, from: number): Promise<number> {
    let status = await statusOf(id)
    for (let attempt = 0; attempt < 50 && status === from; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      status = await statusOf(id)
    }
    return status
  }

  it('tests a channel with gpt-3.5-turbo by default, records the time and a test log, charges nothing', async () => {
    const id = await createChannel('tested', 'good-key')
    const before = (await root.get('/api/user/self')).body.data.quota
    const result = await root.get(`/api/channel/test/${id}`)
    expect(result.body).toMatchObject({ success: true, model: 'gpt-3.5-turbo' })
    expect(result.body.time).toBeGreaterThan(0)
    const chosen = await root.get(`/api/channel/test/${id}?model=gpt-4o-mini`)
    expect(chosen.body.model).toBe('gpt-4o-mini')
    expect(mock.requests.at(-1)?.json?.model).toBe('gpt-4o-mini')
    const channel = (await root.get(`/api/channel/${id}`)).body.data
    expect(channel.response_time).toBeGreaterThan(0)
    expect(channel.test_time).toBeGreaterThan(0)
    expect((await root.get('/api/user/self')).body.data.quota).toBe(before)
    const logs = await server.context.logDb
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 5)
      .where('channel_id', '=', id)
      .execute()
    expect(logs).toHaveLength(2)
    expect(logs[0].content).toMatch(/test succeeded/)
  })

  it('reports a failing test with the upstream message, without the key it may quote, and no response time', async () => {
    const key = QUOTED_KEY
    // Some providers quote the refused key in full: neither the answer nor the test log may carry it.
    // (The mock lets the key in; this fault refuses it, quoting it.)
    mock.addFault({
      match: { keyContains: key },
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${key}.`, code: 'invalid_api_key' } },
    })
    const id = await createChannel('badkey', key)
    const result = await root.get(`/api/channel/test/${id}`)
    expect(result.body.success).toBe(false)
    expect(result.body.message).toBe('Incorrect API key provided: [channel key].')
    const logs = await server.context.logDb
      .selectFrom('logs')
      .select('content')
      .where('channel_id', '=', id)
      .execute()
    expect(logs.map((log) => log.content)).toEqual([
      expect.stringContaining('test failed: Incorrect API key provided: [channel key].'),
    ])
    // A failed test has no response time (its elapsed time made a dead channel look fast).
    const channel = await server.context.db
      .selectFrom('channels')
      .select(['response_time', 'test_time'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(channel.response_time).toBe(0)
    expect(Number(channel.test_time)).toBeGreaterThan(0)
  })

  it('disables a channel only after repeated key failures when automatic disabling is on, and re-enables only program-disabled channels', async () => {
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' })
    await root.put('/api/option/', { key: 'AutomaticEnableChannelEnabled', value: 'true' })
    const id = await createChannel('flaky', 'wrong-key')
    // Relay traffic counts towards the threshold (2 failures in the window here): one is not enough.
    // The token's key pins the channel (root may), so each request meets the rejected key.
    const token = await root.post('/api/token/', { name: 'flaky-relay', unlimited_quota: true })
    expect(token.status).toBe(200)
    const relayOnce = async () => {
      const answer = await relayPinned(token.body.data.key, id)
      // The client is not told its own key is wrong (401), nor shown the upstream's message.
      expect(answer.status).toBe(503)
      const text = await answer.text()
      expect(JSON.parse(text).error).toMatchObject({ type: 'upstream_error', code: 'channel_unavailable' })
      expect(text).not.toMatch(/wrong-key|Incorrect API key/)
      expect(mock.requests.at(-1)?.headers.authorization).toBe('Bearer wrong-key')
    }
    await relayOnce()
    expect(await statusOf(id)).toBe(1)
    await relayOnce()
    expect(await statusAfterLeaving(id, 1)).toBe(3)
    // Fixing the key and testing brings a program-disabled channel back.
    await root.put('/api/channel/', { id, key: 'good-key' })
    await root.get(`/api/channel/test/${id}`)
    expect(await statusOf(id)).toBe(1)
    // A manually disabled channel stays disabled even when its test passes.
    await root.put('/api/channel/', { id, status: 2 })
    await root.get(`/api/channel/test/${id}`)
    expect(await statusOf(id)).toBe(2)
  })

  it('counts failures afresh once a channel is enabled again by hand', async () => {
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' })
    const id = await createChannel('recount', 'wrong-key-recount')
    const token = await root.post('/api/token/', { name: 'recount-relay', unlimited_quota: true })
    const relayOnce = async () => expect((await relayPinned(token.body.data.key, id)).status).toBe(503)
    // One failure of the two that disable it; then an administrator disables and enables it again.
    await relayOnce()
    expect((await root.put('/api/channel/?status_only=true', { id, status: 2 })).status).toBe(200)
    expect((await root.put('/api/channel/?status_only=true', { id, status: 1 })).status).toBe(200)
    // The failure before no longer counts: one more does not disable it.
    await relayOnce()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await statusOf(id)).toBe(1)
    await relayOnce()
    expect(await statusAfterLeaving(id, 1)).toBe(3)
  })

  it('never overwrites a status an administrator set while a test or a failure was in flight', async () => {
    const monitor = server.context.channelHealth!
    const id = await createChannel('hand-set', 'good-key')
    // Disabled by hand after a test-all run read it as program-disabled, whose test then passed.
    await root.put('/api/channel/', { id, status: 2 })
    await monitor.enable(id, 'hand-set')
    expect(await statusOf(id)).toBe(2)
    // Failures that arrive after a hand disable do not turn it into a program disable (which
    // automatic enabling would later lift).
    await monitor.disable(id, 'hand-set', 'late failure')
    expect(await statusOf(id)).toBe(2)
    // The program's own switches still work on the statuses they are for.
    await root.put('/api/channel/', { id, status: 1 })
    await monitor.disable(id, 'hand-set', 'key refused')
    expect(await statusOf(id)).toBe(3)
    await monitor.enable(id, 'hand-set')
    expect(await statusOf(id)).toBe(1)
  })

  it('disables at once a channel whose explicit test proves its key is rejected', async () => {
    const id = await createChannel('revoked', 'wrong-key')
    const result = await root.get(`/api/channel/test/${id}`)
    expect(result.body.success).toBe(false)
    expect(await statusOf(id)).toBe(3)
  })

  it('tests all channels, or only the disabled ones, in the background, one run at a time', async () => {
    await root.put('/api/option/', { key: 'AutomaticEnableChannelEnabled', value: 'true' })
    const enabled = await createChannel('sweep-enabled', 'good-key')
    const programDisabled = await createChannel('sweep-program-off', 'good-key')
    expect((await root.put('/api/channel/', { id: programDisabled, status: 3 })).status).toBe(200)
    const testLogs = async (id: number) =>
      (
        await server.context.logDb
          .selectFrom('logs')
          .select('id')
          .where('type', '=', 5)
          .where('channel_id', '=', id)
          .execute()
      ).length
    const runToTheEnd = async (scope: string) => {
      expect((await root.get(`/api/channel/test?scope=${scope}`)).body.success).toBe(true)
      expect(outcome(await root.get(`/api/channel/test?scope=${scope}`))).toEqual(REFUSED)
      for (let attempt = 0; attempt < 100 && server.context.channelTests?.isRunning; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(server.context.channelTests?.isRunning).toBe(false)
    }
    await runToTheEnd('disabled')
    expect(await testLogs(enabled)).toBe(0)
    expect(await testLogs(programDisabled)).toBe(1)
    // Its test passed and the program had disabled it: it is back.
    expect(await statusOf(programDisabled)).toBe(1)
    // A channel slower than ChannelDisableThreshold seconds is disabled by a test-all run.
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' })
    await root.put('/api/option/', { key: 'ChannelDisableThreshold', value: '1' })
    const slow = await createChannel('sweep-slow', 'good-key', { models: ['sweep-slow-model'] })
    mock.addFault({ match: { model: 'sweep-slow-model' }, delayMs: 1_300 })
    try {
      await runToTheEnd('all')
    } finally {
      await root.put('/api/option/', { key: 'ChannelDisableThreshold', value: '5' })
      mock.clearFaults()
    }
    expect(await statusOf(slow)).toBe(3)
    expect(await statusOf(enabled)).toBe(1)
    expect(await testLogs(enabled)).toBe(1)
    expect(await testLogs(programDisabled)).toBe(2)
    expect((await root.get(`/api/channel/${enabled}`)).body.data.test_time).toBeGreaterThan(0)
    expect(outcome(await root.get('/api/channel/test?scope=bogus'))).toEqual(REFUSED)
  })

  it('queries the balance of OpenAI-style channels and says "not supported" for others', async () => {
    const created = await root.post('/api/channel/', {
      name: 'billing',
      type: 8,
      key: 'k',
      base_url: billingUrl,
      models: ['gpt-4o-mini'],
    })
    expect(created.status).toBe(200)
    const id = (await root.get('/api/channel/search?keyword=billing')).body.data[0].id
    const result = await root.get(`/api/channel/update_balance/${id}`)
    expect(result.body).toMatchObject({ success: true, balance: 99.5 })
    expect((await root.get(`/api/channel/${id}`)).body.data.balance).toBe(99.5)
    const other = await createChannel('nobalance', 'good-key')
    const unsupported = await root.get(`/api/channel/update_balance/${other}`)
    expect(unsupported.body).toMatchObject({ success: false, message: 'not supported' })
  })
})
