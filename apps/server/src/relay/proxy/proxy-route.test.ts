import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from '../../../../../tools/mock-upstream/src/server.ts'
import { freePort } from '../../testing/free-port.ts'
import { ApiClient, registerAndLogin } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'

describe('the proxy route for channel type 43', () => {
  let server: TestApp
  let mock: MockUpstream
  let channelId: number
  let root: ApiClient
  /** A target that answers with a request id and CORS headers of its own, as another gateway does. */
  let gatewayLike: Server
  let gatewayLikeChannelId: number
  const targetSaw: Array<Record<string, unknown>> = []
  let slowClosedAt = 0
  const keyOf = async (username: string) => {
    const row = await server.context.db
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .select('tokens.key')
      .where('users.username', '=', username)
      .executeTakeFirstOrThrow()
    return `sk-${row.key}`
  }

  beforeAll(async () => {
    mock = await startMockUpstream()
    server = await startTestApp('sqlite')
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    expect(
      (await root.post('/api/channel/', { name: 'raw', type: 43, key: 'Raw-Secret-Key', base_url: mock.url }))
        .status,
    ).toBe(200)
    channelId = (await root.get('/api/channel/search?keyword=raw')).body.data[0].id
    gatewayLike = createServer((request, response) => {
      targetSaw.push(request.headers)
      if (request.url === '/thinking') {
        // Takes its time before answering at all.
        const timer = setTimeout(() => response.end('{"late":true}'), 5_000)
        response.on('close', () => {
          clearTimeout(timer)
          slowClosedAt = Date.now()
        })
        return
      }
      if (request.url === '/echo-body') {
        const chunks: Buffer[] = []
        request.on('data', (chunk: Buffer) => chunks.push(chunk))
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end(
            JSON.stringify({ method: request.method, body: Buffer.concat(chunks).toString('utf8') }),
          )
        })
        return
      }
      if (request.url === '/slow') {
        // A long stream: a piece every 50 ms until the caller goes away.
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        const timer = setInterval(() => response.write('data: piece\n\n'), 50)
        response.on('close', () => {
          clearInterval(timer)
          slowClosedAt = Date.now()
        })
        return
      }
      response.writeHead(200, {
        'content-type': 'application/json',
        'x-oneapi-request-id': 'the-targets-own-id',
        'access-control-allow-origin': 'https://elsewhere.example',
        'x-target-header': 'kept',
      })
      response.end('{"ok":true}')
    })
    await new Promise<void>((resolve) => gatewayLike.listen(0, '127.0.0.1', resolve))
    const targetUrl = `http://127.0.0.1:${(gatewayLike.address() as AddressInfo).port}`
    expect(
      (await root.post('/api/channel/', { name: 'other-gateway', type: 43, key: 'k', base_url: targetUrl }))
        .status,
    ).toBe(200)
    gatewayLikeChannelId = (await root.get('/api/channel/search?keyword=other-gateway')).body.data[0].id
    await registerAndLogin(server.baseUrl, 'plainuser')
  })
  afterAll(async () => {
    await server?.close()
    await mock?.close()
    await new Promise((resolve) => gatewayLike?.close(resolve))
  })

  const proxyLogs = async (requestId: string) => {
    await server.context.relay.logWriter.flush()
    return server.context.logDb
      .selectFrom('logs')
      .selectAll()
      .where('model_name', '=', 'oneapi-proxy')
      .where('request_id', '=', requestId)
      .execute()
  }

  it("keeps the gateway's request id and CORS headers when the target sends its own", async () => {
    const response = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${gatewayLikeChannelId}/anything`, {
      headers: { authorization: `Bearer ${await keyOf('root')}`, origin: 'https://console.example' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-target-header')).toBe('kept')
    const requestId = response.headers.get('x-oneapi-request-id')!
    // The id the client sees is the one its log row carries (the target's id replaced it).
    expect(requestId).not.toBe('the-targets-own-id')
    expect(await proxyLogs(requestId)).toHaveLength(1)
    expect(response.headers.get('access-control-allow-origin')).not.toBe('https://elsewhere.example')
  })

  it("never passes the console's session cookie on, and counts proxy requests in /metrics", async () => {
    const response = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${gatewayLikeChannelId}/with-cookie`, {
      headers: {
        authorization: `Bearer ${await keyOf('root')}`,
        cookie: 'session=the-admins-session',
        'x-kept': '1',
      },
    })
    expect(response.status).toBe(200)
    expect(targetSaw.at(-1)).toMatchObject({ 'x-kept': '1' })
    expect(targetSaw.at(-1)).not.toHaveProperty('cookie')
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text()
    expect(metrics).toMatch(
      new RegExp(
        `oneapi_relay_requests_total\\{channel="${gatewayLikeChannelId}",model="oneapi-proxy",status="200"\\} \\d+`,
      ),
    )
  })

  it.each(['content-length', 'chunked'])(
    'passes a GET request body (%s) on, as one-api does (Fastify reads none for GET)',
    async (framing) => {
      const key = await keyOf('root')
      const QUERY = '{"query":{"match_all":{}}}'
      const framingHeader =
        framing === 'content-length'
          ? { 'content-length': String(Buffer.byteLength(QUERY)) }
          : { 'transfer-encoding': 'chunked' }
      // fetch refuses a body on GET; node:http sends it, as search APIs' clients do (node:http
      // frames a GET's body only when told how).
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const call = httpRequest(
          `${server.baseUrl}/v1/oneapi/proxy/${gatewayLikeChannelId}/echo-body`,
          {
            method: 'GET',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...framingHeader },
          },
          (reply) => {
            let text = ''
            reply.on('data', (chunk) => {
              text += chunk
            })
            reply.on('end', () => resolve({ status: reply.statusCode ?? 0, body: text }))
          },
        )
        call.on('error', reject)
        call.write(QUERY)
        call.end()
      })
      expect(answer.status, answer.body).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({ method: 'GET', body: QUERY })
    },
  )

  it('counts a call whose target could not be reached under its channel in /metrics', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`
    expect(
      (await root.post('/api/channel/', { name: 'dead-target', type: 43, key: 'k', base_url: dead })).status,
    ).toBe(200)
    const deadId = (await root.get('/api/channel/search?keyword=dead-target')).body.data[0].id
    const response = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${deadId}/anything`, {
      headers: { authorization: `Bearer ${await keyOf('root')}` },
    })
    expect(response.status).toBe(502)
    expect((await response.json()).error).toMatchObject({ code: 'do_request_failed' })
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text()
    expect(metrics).toMatch(
      new RegExp(
        `oneapi_relay_requests_total\\{channel="${deadId}",model="oneapi-proxy",status="502"\\} 1\\n`,
      ),
    )
  })

  it('ends the call to the target when the client goes away mid-answer', async () => {
    const leaving = new AbortController()
    const startedAt = Date.now()
    const response = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${gatewayLikeChannelId}/slow`, {
      headers: { authorization: `Bearer ${await keyOf('root')}` },
      signal: leaving.signal,
    })
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('data: piece')
    await new Promise((resolve) => setTimeout(resolve, 300)) // a few more pieces
    slowClosedAt = 0
    const leftAt = Date.now()
    leaving.abort()
    const deadline = Date.now() + 3_000
    while (slowClosedAt === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    // The target's stream is closed at once, not left running for nobody.
    expect(slowClosedAt).toBeGreaterThan(0)
    expect(slowClosedAt - leftAt).toBeLessThan(1_000)
    // Its log covers the stream, not the wait for its headers (it said a few milliseconds, no stream).
    const [log] = await proxyLogs(response.headers.get('x-oneapi-request-id')!)
    expect(Boolean(log!.is_stream)).toBe(true)
    expect(log!.elapsed_time).toBeGreaterThanOrEqual(leftAt - startedAt - 50)
  })

  it('ends the call to the target when the client goes away before it answered', async () => {
    const leaving = new AbortController()
    const call = fetch(`${server.baseUrl}/v1/oneapi/proxy/${gatewayLikeChannelId}/thinking`, {
      headers: { authorization: `Bearer ${await keyOf('root')}` },
      signal: leaving.signal,
    }).catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 200))
    slowClosedAt = 0
    const leftAt = Date.now()
    leaving.abort()
    await call
    const deadline = Date.now() + 3_000
    while (slowClosedAt === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20))
    // The target no longer works 5 s for nobody.
    expect(slowClosedAt).toBeGreaterThan(0)
    expect(slowClosedAt - leftAt).toBeLessThan(1_000)
  })

  it('bills but writes no log when LogConsumeEnabled is off, like every relayed request', async () => {
    expect((await root.put('/api/option/', { key: 'LogConsumeEnabled', value: 'false' })).status).toBe(200)
    try {
      const quota = async () =>
        Number(
          (
            await server.context.db
              .selectFrom('users')
              .select('quota')
              .where('username', '=', 'root')
              .executeTakeFirstOrThrow()
          ).quota,
        )
      const before = await quota()
      const response = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${channelId}/v1/models`, {
        headers: { authorization: `Bearer ${await keyOf('root')}` },
      })
      expect(response.status).toBe(200)
      expect(await quota()).toBe(before - 1000)
      expect(await proxyLogs(response.headers.get('x-oneapi-request-id')!)).toEqual([])
    } finally {
      await root.put('/api/option/', { key: 'LogConsumeEnabled', value: 'true' })
    }
  })

  it('forwards an administrator request with the channel key, and bills and logs it', async () => {
    const before = await server.context.db
      .selectFrom('users')
      .select('quota')
      .where('username', '=', 'root')
      .executeTakeFirstOrThrow()
    const response = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${channelId}/v1/chat/completions?x=1`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await keyOf('root')}`,
        'content-type': 'application/json',
        'x-extra': 'kept',
      },
      body: JSON.stringify({ model: 'anything', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(response.status).toBe(200)
    expect((await response.json()).object).toBe('chat.completion')
    const seen = mock.requests.at(-1)!
    expect(seen.path).toBe('/v1/chat/completions?x=1')
    expect(seen.headers.authorization).toBe('Raw-Secret-Key')
    expect(seen.headers['x-extra']).toBe('kept')
    const after = await server.context.db
      .selectFrom('users')
      .select('quota')
      .where('username', '=', 'root')
      .executeTakeFirstOrThrow()
    expect(Number(before.quota) - Number(after.quota)).toBe(1000)
    await server.context.relay.logWriter.flush()
    const log = await server.context.logDb
      .selectFrom('logs')
      .selectAll()
      .where('model_name', '=', 'oneapi-proxy')
      .where('channel_id', '=', channelId)
      .executeTakeFirstOrThrow()
    expect(log).toMatchObject({ quota: 1000, channel_id: channelId, username: 'root' })
  })

  it("refuses a request the token cannot pay with the relay's own code and message", async () => {
    // It said 'The remaining quota is not enough for this request' here, and more on the relay.
    const created = await root.post('/api/token/', {
      name: 'proxy-short',
      remain_quota: 500,
      unlimited_quota: false,
      expired_time: -1,
    })
    expect(created.body.success).toBe(true)
    const [token] = (await root.get('/api/token/search?keyword=proxy-short')).body.data
    const response = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${channelId}/v1/models`, {
      headers: { authorization: `Bearer sk-${token.key}` },
    })
    expect(response.status).toBe(403)
    const { error } = await response.json()
    expect(error.code).toBe('insufficient_token_quota')
    expect(error.message).toMatch(
      /^The remaining quota of token proxy-short is not enough for this request \(needs 1000\)/,
    )
  })

  it('refuses normal users and channels that are not proxies', async () => {
    const user = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${channelId}/v1/models`, {
      headers: { authorization: `Bearer ${await keyOf('plainuser')}` },
    })
    expect(user.status).toBe(403)
    expect((await user.json()).error.code).toBe('proxy_forbidden')
    const missing = await fetch(`${server.baseUrl}/v1/oneapi/proxy/99999/v1/models`, {
      headers: { authorization: `Bearer ${await keyOf('root')}` },
    })
    expect(missing.status).toBe(400)
    for (const id of ['abc', '0', '1e3', '99999999999']) {
      const malformed = await fetch(`${server.baseUrl}/v1/oneapi/proxy/${id}/v1/models`, {
        headers: { authorization: `Bearer ${await keyOf('root')}` },
      })
      expect(malformed.status).toBe(400)
      expect((await malformed.json()).error).toMatchObject({
        code: 'invalid_channel_id',
        message: expect.stringContaining(`The channel id must be a positive whole number, not "${id}"`),
      })
    }
  })
})
