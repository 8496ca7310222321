import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockUpstream, startMockUpstream } from '../../../tools/mock-upstream/src/server.ts'
import { freePort } from './testing/free-port.ts'
import { ApiClient } from './testing/http-client.ts'

const root = new URL('../../../', import.meta.url).pathname
const SLOW_MODEL = 'gpt-4o-mini+chunk-delay-ms=150+chunks=10'

describe('graceful shutdown of the server process', () => {
  let mock: MockUpstream
  let child: ChildProcess
  let exited: Promise<number | null>
  let baseUrl: string
  const databasePath = join(mkdtempSync(join(tmpdir(), 'one-api-shutdown-')), 'one-api.db')

  beforeAll(async () => {
    mock = await startMockUpstream()
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        SQLITE_PATH: databasePath,
        INITIAL_ROOT_PASSWORD: 'root-password-1',
        LOG_LEVEL: 'warn',
        SHUTDOWN_TIMEOUT: '20',
      },
      stdio: 'ignore',
    })
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
    for (let attempt = 0; attempt < 150; attempt++) {
      const ready = await fetch(`${baseUrl}/api/status`).then(
        (response) => response.ok,
        () => false,
      )
      if (ready) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }, 60_000)
  afterAll(async () => {
    child?.kill('SIGKILL')
    await mock?.close()
  })

  it('lets an in-flight stream finish after SIGTERM, bills it, writes its log, then exits', async () => {
    const admin = new ApiClient(baseUrl)
    await admin.login('root', 'root-password-1')
    const created = await admin.post('/api/channel/', {
      name: 'slow',
      type: 50,
      key: 'k',
      base_url: `${mock.url}/v1`,
      models: [SLOW_MODEL],
    })
    expect(created.status).toBe(200)
    await admin.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [SLOW_MODEL]: 1 }) })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const database = new SqliteDatabase(databasePath, { readonly: true })
    const { key } = database.prepare('select key from tokens where user_id = 1').get() as { key: string }
    database.close()

    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: SLOW_MODEL,
        stream: true,
        messages: [{ role: 'user', content: 'count slowly' }],
      }),
    })
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    child.kill('SIGTERM')
    let text = new TextDecoder().decode(first.value)
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
    expect((text.match(/"content":"[^"]+"/g) ?? []).length).toBe(10)
    expect(await exited).toBe(0)
    const after = new SqliteDatabase(databasePath, { readonly: true })
    const log = after
      .prepare('select completion_tokens, quota, is_stream from logs where type = 2')
      .all() as Array<{ completion_tokens: number; quota: number }>
    const user = after.prepare('select request_count, used_quota from users where id = 1').get() as {
      request_count: number
      used_quota: number
    }
    after.close()
    expect(log).toHaveLength(1)
    expect(log[0].completion_tokens).toBe(10)
    expect(user.request_count).toBe(1)
    expect(user.used_quota).toBe(log[0].quota)
  }, 60_000)
})
