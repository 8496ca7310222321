import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import bcrypt from 'bcryptjs'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../testing/http-client.ts'
import { startTestApp, type TestApp } from '../../testing/test-app.ts'
import { createScratchDatabase, type ScratchDatabase, testDialects } from '../../testing/test-databases.ts'
import { openDatabase } from '../database.ts'
import { parseDatabaseTarget } from '../dsn.ts'

/**
 * An existing one-api database, as gorm's AutoMigrate left it (no last_login_ip, no created_time,
 * varchar(32) groups, no index on tokens.user_id), with a password hashed by Go's bcrypt ($2a$).
 */
function oneApiSchema(dialect: string): string[] {
  const id =
    dialect === 'sqlite'
      ? 'integer primary key autoincrement'
      : dialect === 'postgres'
        ? 'bigserial primary key'
        : 'bigint auto_increment primary key'
  const text = dialect === 'mysql' ? 'longtext' : 'text'
  const bool = dialect === 'postgres' ? 'boolean' : 'numeric'
  const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
  return [
    `create table users (id ${id}, username varchar(191) unique, password ${text} not null, display_name varchar(191), role bigint default 1, status bigint default 1, email varchar(191), github_id varchar(191), wechat_id varchar(191), lark_id varchar(191), oidc_id varchar(191), access_token char(32) unique, quota bigint default 0, used_quota bigint default 0, request_count bigint default 0, ${q('group')} varchar(32) default 'default', aff_code varchar(32) unique, inviter_id bigint)`,
    `create table tokens (id ${id}, user_id bigint, ${q('key')} char(48) unique, status bigint default 1, name varchar(191), created_time bigint, accessed_time bigint, expired_time bigint default -1, remain_quota bigint default 0, unlimited_quota ${bool} default false, used_quota bigint default 0, models ${text}, subnet varchar(191) default '')`,
    `create table options (${q('key')} varchar(191) primary key, value ${text})`,
    `create table logs (id ${id}, user_id bigint, created_at bigint, type bigint, content ${text}, username varchar(191) default '', token_name varchar(191) default '', model_name varchar(191) default '', quota bigint default 0, prompt_tokens bigint default 0, completion_tokens bigint default 0, channel_id bigint, request_id varchar(191) default '', elapsed_time bigint default 0, is_stream ${bool} default false, system_prompt_reset ${bool} default false)`,
  ]
}

describe.each(testDialects())('upgrading an existing one-api database on %s', (dialect) => {
  let scratch: ScratchDatabase
  let server: TestApp
  const goHash = bcrypt.hashSync('old-password-1', 10).replace(/^\$2b\$/, '$2a$')

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect, mkdtempSync(join(tmpdir(), 'one-api-upgrade-')))
    const target = parseDatabaseTarget(scratch.dsn, scratch.sqlitePath ?? '')
    const handle = openDatabase<unknown>(target, { poolSize: 1, busyTimeoutMs: 1000, maxLifetimeSeconds: 0 })
    const db = handle.db as Kysely<unknown>
    for (const statement of oneApiSchema(dialect)) await sql.raw(statement).execute(db)
    const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`)
    await sql
      .raw(
        `insert into users (username, password, display_name, role, status, email, quota, used_quota, request_count, ${q('group')}, aff_code, access_token) values ('root', '${goHash}', 'Root User', 100, 1, '', 1000, 0, 0, 'default', 'abcd', '0123456789abcdef0123456789abcdef'), ('olduser', '${goHash}', 'Old', 1, 1, 'old@example.com', 777, 23, 4, 'vip', 'efgh', null)`,
      )
      .execute(db)
    await sql
      .raw(`insert into options (${q('key')}, value) values ('SystemName', 'Legacy Gateway')`)
      .execute(db)
    await sql
      .raw(
        `insert into logs (user_id, created_at, type, content, username, quota) values (2, 1700000000, 2, 'old log', 'olduser', 50)`,
      )
      .execute(db)
    await handle.close()
    server = await startTestApp(
      dialect,
      scratch.dsn ? { SQL_DSN: scratch.dsn } : { SQLITE_PATH: scratch.sqlitePath! },
    )
  })

  afterAll(async () => {
    await server?.close()
    await scratch?.drop()
  })

  it('keeps users, passwords, options and logs, and adds the new columns', async () => {
    const client = new ApiClient(server.baseUrl)
    const login = await client.post('/api/user/login', { username: 'olduser', password: 'old-password-1' })
    expect(login.status).toBe(200)
    const self = (await client.get('/api/user/self')).body.data
    expect(self).toMatchObject({
      username: 'olduser',
      quota: 777,
      used_quota: 23,
      request_count: 4,
      group: 'vip',
      email: 'old@example.com',
    })
    expect(self.last_login_ip).toBe('127.0.0.1')
    expect((await client.get('/api/status')).body.data.system_name).toBe('Legacy Gateway')
    const logs = await server.context.logDb.selectFrom('logs').selectAll().execute()
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({ content: 'old log', ip: '' })
  })

  it('does not create a second root and keeps the old access token working', async () => {
    const users = await server.context.db.selectFrom('users').select('username').execute()
    expect(users.map((user) => user.username).sort()).toEqual(['olduser', 'root'])
    const byToken = await new ApiClient(server.baseUrl, '0123456789abcdef0123456789abcdef').get(
      '/api/user/self',
    )
    expect(byToken.body.data.username).toBe('root')
  })

  it('adds the indexes one-api lacks', async () => {
    const tables = await server.context.db.introspection.getTables()
    expect(tables.find((table) => table.name === 'channels')).toBeDefined()
    const indexQuery =
      dialect === 'sqlite'
        ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'tokens'`
        : dialect === 'postgres'
          ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'tokens'`
          : sql<{
              name: string
            }>`select index_name as name from information_schema.statistics where table_schema = database() and table_name = 'tokens'`
    const names = (await indexQuery.execute(server.context.db)).rows.map((row) => row.name)
    expect(names).toContain('idx_tokens_user_id')
  })
})
