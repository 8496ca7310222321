import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from '../../../../../tools/mock-upstream/src/server.ts'
import { ApiClient } from '../../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../testing/test-app.ts'

/** A minimal SMTP server (RFC 5321 happy path, no TLS) that keeps every message it receives. */
function startSmtpServer(messages: string[]): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    let data = false
    let buffer = ''
    socket.write('220 test ESMTP\r\n')
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      if (data) {
        const end = buffer.indexOf('\r\n.\r\n')
        if (end === -1) return
        messages.push(buffer.slice(0, end))
        buffer = buffer.slice(end + 5)
        data = false
        socket.write('250 queued\r\n')
      }
      let newline = buffer.indexOf('\r\n')
      while (!data && newline !== -1) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-test\r\n250 8BITMIME\r\n')
        else if (verb === 'DATA') {
          data = true
          socket.write('354 go ahead\r\n')
        } else if (verb === 'QUIT') socket.end('221 bye\r\n')
        else socket.write('250 ok\r\n')
        newline = buffer.indexOf('\r\n')
      }
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port }),
    ),
  )
}

// Some providers quote the key they refuse in full: root's notice must not carry it. The mock lets
// it in, and a fault refuses it quoting it.
const QUOTED_KEY = 'sk-quoted-bad-key-0042'

describe('notifying root when a channel is disabled', () => {
  let server: TestApp
  let mock: MockUpstream
  let smtp: Server
  let pusher: HttpServer
  let root: ApiClient
  const emails: string[] = []
  const pushed: Array<Record<string, string>> = []

  beforeAll(async () => {
    mock = await startMockUpstream({ apiKeys: ['good-key', QUOTED_KEY] })
    const started = await startSmtpServer(emails)
    smtp = started.server
    pusher = createHttpServer((request, response) => {
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
    server = await startTestApp('sqlite')
    root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    await server.context.db
      .updateTable('users')
      .set({ email: 'root@example.com' })
      .where('username', '=', 'root')
      .execute()
    for (const [key, value] of [
      ['SMTPServer', '127.0.0.1'],
      ['SMTPPort', String(started.port)],
      ['SMTPFrom', 'gateway@example.com'],
      ['AutomaticDisableChannelEnabled', 'true'],
    ]) {
      expect((await root.put('/api/option/', { key, value })).status).toBe(200)
    }
  })
  afterAll(async () => {
    await server?.close()
    await mock?.close()
    smtp?.close()
    pusher?.close()
  })

  async function disableThroughTest(name: string): Promise<void> {
    mock.addFault({
      match: { keyContains: QUOTED_KEY },
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${QUOTED_KEY}.`, code: 'invalid_api_key' } },
    })
    await root.post('/api/channel/', {
      name,
      type: 50,
      key: QUOTED_KEY,
      base_url: `${mock.url}/v1`,
      models: ['gpt-4o-mini'],
    })
    const id = (await root.get(`/api/channel/search?keyword=${name}`)).body.data[0].id
    expect((await root.get(`/api/channel/test/${id}`)).body.success).toBe(false)
    expect((await root.get(`/api/channel/${id}`)).body.data.status).toBe(3)
  }

  it('emails root through the configured SMTP server', async () => {
    await disableThroughTest('mailed')
    expect(emails).toHaveLength(1)
    expect(emails[0]).toContain('root@example.com')
    expect(emails[0]).toMatch(/Channel mailed \(#\d+\) has been disabled/)
    // Quoted-printable: long lines carry soft breaks.
    const body = emails[0]!.replace(/=\r\n/g, '')
    expect(body).toContain('Incorrect API key provided: [channel key]')
    expect(body).not.toContain(QUOTED_KEY)
  })

  it('uses Message Pusher instead when it is configured', async () => {
    const port = (pusher.address() as { port: number }).port
    await root.put('/api/option/', {
      key: 'MessagePusherAddress',
      value: `http://127.0.0.1:${port}/push/root`,
    })
    await root.put('/api/option/', { key: 'MessagePusherToken', value: 'push-secret' })
    await disableThroughTest('pushed')
    expect(pushed).toHaveLength(1)
    expect(pushed[0]).toMatchObject({ token: 'push-secret' })
    expect(pushed[0].title).toMatch(/Channel pushed \(#\d+\) has been disabled/)
    expect(pushed[0].content).toContain('[channel key]')
    expect(JSON.stringify(pushed[0])).not.toContain(QUOTED_KEY)
    expect(emails).toHaveLength(1)
  })
})
