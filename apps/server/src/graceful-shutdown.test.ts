import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from '../../../tools/mock-upstream/src/server.ts'
import { freePort } from './testing/free-port.ts'
import { ApiClient } from './testing/http-client.ts'
import { COMPILED_SERVER, REPOSITORY_ROOT } from './testing/server-process.ts'

const SLOW_MODEL = 'gpt-4o-mini+chunk-delay-ms=150+chunks=10'

interface ServerProcess {
  child: ChildProcess
  exited: Promise<number | null>
  baseUrl: string
  databasePath: string
}

/** The real server in a process of its own, on a fresh SQLite file, ready for requests. */
async function startServer(shutdownTimeoutSeconds: number): Promise<ServerProcess> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const databasePath = join(mkdtempSync(join(tmpdir(), 'one-api-shutdown-')), 'one-api.db')
  const child = spawn(process.execPath, COMPILED_SERVER, {
    cwd: REPOSITORY_ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      SQLITE_PATH: databasePath,
      INITIAL_ROOT_PASSWORD: 'root-password-1',
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT: String(shutdownTimeoutSeconds),
    },
    stdio: 'ignore',
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  for (let attempt = 0; attempt < 300; attempt++) {
    const ready = await fetch(`${baseUrl}/api/status`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { child, exited, baseUrl, databasePath }
}

describe('graceful shutdown of the server process', () => {
  let mock: MockUpstream
  const servers: ServerProcess[] = []

  beforeAll(async () => {
    mock = await startMockUpstream()
  })
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGKILL')
    await mock?.close()
  })

  /** A server with a channel for `model`, and root's default token; returns what a client needs. */
  async function serverWithChannel(model: string, shutdownTimeoutSeconds: number) {
    const server = await startServer(shutdownTimeoutSeconds)
    servers.push(server)
    const admin = new ApiClient(server.baseUrl)
    await admin.login('root', 'root-password-1')
    const created = await admin.post('/api/channel/', {
      name: 'slow',
      type: 50,
      key: 'k',
      base_url: `${mock.url}/v1`,
      models: [model],
    })
    expect(created.status).toBe(200)
    await admin.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [model]: 1 }) })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const database = new SqliteDatabase(server.databasePath, { readonly: true })
    const { key } = database.prepare('select key from tokens where user_id = 1').get() as { key: string }
    database.close()
    return { server, key, stream: streamOf(server, key, model) }
  }

  const streamOf = (server: ServerProcess, key: string, model: string) => () =>
    fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'count slowly' }] }),
    })

  /** Root's consume logs and counters after the server stopped. */
  function billing(databasePath: string) {
    const after = new SqliteDatabase(databasePath, { readonly: true })
    const logs = after
      .prepare('select completion_tokens, quota, is_stream, content from logs where type = 2')
      .all() as Array<{ completion_tokens: number; quota: number; content: string }>
    const user = after.prepare('select request_count, used_quota from users where id = 1').get() as {
      request_count: number
      used_quota: number
    }
    const token = after.prepare('select used_quota from tokens where user_id = 1').get() as {
      used_quota: number
    }
    after.close()
    return { logs, user, token }
  }

  async function readAll(response: Response, first: Uint8Array): Promise<string> {
    const reader = response.body!.getReader()
    let text = new TextDecoder().decode(first)
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
      if (done) break
      text += new TextDecoder().decode(value)
    }
    return text
  }

  it('lets an in-flight stream finish after SIGTERM, bills it, writes its log, then exits', async () => {
    const { server, stream } = await serverWithChannel(SLOW_MODEL, 20)
    const response = await stream()
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    reader.releaseLock()
    server.child.kill('SIGTERM')
    const text = await readAll(response, first.value!)
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
    expect((text.match(/"content":"[^"]+"/g) ?? []).length).toBe(10)
    expect(await server.exited).toBe(0)
    const { logs, user } = billing(server.databasePath)
    expect(logs).toHaveLength(1)
    expect(logs[0].completion_tokens).toBe(10)
    expect(user.request_count).toBe(1)
    expect(user.used_quota).toBe(logs[0].quota)
  }, 60_000)

  it('bills and logs a stream the shutdown deadline cut off before the ledger and the logs close', async () => {
    // 40 chunks 150 ms apart outlast a 1 s deadline.
    const { server, stream } = await serverWithChannel('gpt-4o-mini+chunk-delay-ms=150+chunks=40', 1)
    const response = await stream()
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const first = await reader.read()
    reader.releaseLock()
    server.child.kill('SIGTERM')
    const text = await readAll(response, first.value!)
    expect(text).not.toContain('data: [DONE]')
    expect(await server.exited).toBe(0)
    const { logs, user, token } = billing(server.databasePath)
    // What was generated until the cut is billed once, and the figures agree.
    expect(logs).toHaveLength(1)
    expect(logs[0].completion_tokens).toBeGreaterThan(0)
    expect(logs[0].completion_tokens).toBeLessThan(40)
    // The gateway cut it, not its client (the log used to blame the client).
    expect(logs[0].content).toContain('cut when the gateway shut down')
    expect(user).toEqual({ request_count: 1, used_quota: logs[0].quota })
    expect(token.used_quota).toBe(logs[0].quota)
  }, 60_000)

  it('answers a request that arrives while it shuts down with 503, its request id and the shape its caller reads', async () => {
    const { server, key } = await serverWithChannel(SLOW_MODEL, 20)
    const port = new URL(server.baseUrl).port
    const socket = connect(Number(port), '127.0.0.1')
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8')
    })
    const closed = new Promise((resolve) => socket.on('close', resolve))
    const body = JSON.stringify({
      model: SLOW_MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    })
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer sk-${key}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
    while (!received.includes('data: ')) await new Promise((resolve) => setTimeout(resolve, 20))
    server.child.kill('SIGTERM')
    // Behind the stream on the same connection, once the server has begun shutting down (the stream
    // lasts 1.5 s).
    await new Promise((resolve) => setTimeout(resolve, 300))
    socket.write('GET /api/status HTTP/1.1\r\nhost: x\r\n\r\nGET /v1/models HTTP/1.1\r\nhost: x\r\n\r\n')
    await closed
    expect(await server.exited).toBe(0)
    const answers = received.split('HTTP/1.1 ').slice(1)
    expect(answers[0]).toMatch(/^200 /)
    expect(answers[0]).toContain('data: [DONE]')
    const refused = answers[1] ?? ''
    expect(refused).toMatch(/^503 /)
    expect(refused).toMatch(/\r\nx-oneapi-request-id: [0-9a-f]{20,}\r\n/i)
    expect(refused).toMatch(/\r\nconnection: close\r\n/i)
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      message: 'The gateway is shutting down; retry on another node',
    })
    // The connection closes after it: the request behind it is never read.
    expect(answers).toHaveLength(2)
  }, 60_000)
})
