import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../testing/http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../testing/test-app.ts'

describe('LOG_SQL_DSN: logs in a separate database', () => {
  let server: TestApp
  const logFile = join(mkdtempSync(join(tmpdir(), 'one-api-logs-')), 'logs.db')
  beforeAll(async () => {
    server = await startTestApp('sqlite', { LOG_SQL_DSN: `sqlite:${logFile}` })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('creates the logs table there and writes logs there, not in the main database', async () => {
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    await root.put('/api/option/', { key: 'QuotaForNewUser', value: '10' })
    const registered = await new ApiClient(server.baseUrl).post('/api/user/register', {
      username: 'logged',
      password: 'password-123',
    })
    expect(registered.status).toBe(200)
    const logs = new SqliteDatabase(logFile, { readonly: true })
    try {
      const rows = logs.prepare("select username, type from logs where username = 'logged'").all()
      expect(rows).toEqual([{ username: 'logged', type: 4 }])
    } finally {
      logs.close()
    }
    const mainTables = await server.context.db.introspection.getTables()
    const mainHasLogs = mainTables.some((table) => table.name === 'logs')
    expect(mainHasLogs).toBe(false)
    const listed = await root.get('/api/log/?type=4')
    expect(listed.body.data.map((row: { username: string }) => row.username)).toContain('logged')
  })
})
