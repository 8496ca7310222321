import { Role, UserStatus } from '@one-api/contracts'
import { insertUser } from '../db/repositories/users-repository.ts'
import { ApiClient, registerAndLogin } from './http-client.ts'
import { ROOT_PASSWORD, type TestApp } from './test-app.ts'

export const USER_PASSWORD = 'password-123'

export async function signInAsRoot(server: TestApp): Promise<ApiClient> {
  const root = new ApiClient(server.baseUrl)
  await root.login('root', ROOT_PASSWORD)
  return root
}

export interface TestUser {
  id: number
  username: string
  client: ApiClient
}

/**
 * Registers a user through the API and signs them in; an administrator or root role is set in
 * the database, since only root can promote and these tests are about what the role allows.
 */
export async function createSignedInUser(
  server: TestApp,
  username: string,
  role: number = Role.Common,
): Promise<TestUser> {
  const client = await registerAndLogin(server.baseUrl, username, USER_PASSWORD)
  const row = await server.context.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow()
  if (role !== Role.Common) {
    await server.context.db.updateTable('users').set({ role }).where('id', '=', row.id).execute()
  }
  return { id: row.id, username, client }
}

export function readUser(server: TestApp, id: number) {
  return server.context.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** Every row of a main-database table, for asserting that a refused request changed nothing. */
export function snapshotTable(server: TestApp, table: 'users' | 'redemptions') {
  return server.context.db.selectFrom(table).selectAll().orderBy('id').execute()
}

export function logsOfType(server: TestApp, type: number) {
  return server.context.logDb.selectFrom('logs').selectAll().where('type', '=', type).orderBy('id').execute()
}

let insertedCount = 0

/** Inserts a user row directly (no password sign-in needed), for list and search fixtures. */
export async function insertTestUser(
  server: TestApp,
  fields: Partial<Omit<Awaited<ReturnType<typeof readUser>>, 'id'>> & { username: string },
): Promise<number> {
  insertedCount++
  return insertUser(server.context.db, {
    password: 'not-a-bcrypt-hash',
    display_name: fields.username,
    role: Role.Common,
    status: UserStatus.enabled,
    email: '',
    github_id: '',
    wechat_id: '',
    lark_id: '',
    oidc_id: '',
    access_token: null,
    quota: 0,
    used_quota: 0,
    request_count: 0,
    group: 'default',
    aff_code: `fixture-${process.pid}-${insertedCount}`,
    inviter_id: 0,
    last_login_ip: '',
    last_login_time: 0,
    created_time: 0,
    ...fields,
  })
}
