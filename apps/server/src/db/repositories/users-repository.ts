import type { Kysely, Selectable, Transaction } from 'kysely'
import type { MainSchema, UsersTable } from '../schema.ts'

export type UserRow = Selectable<UsersTable>
type Executor = Kysely<MainSchema> | Transaction<MainSchema>

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst()
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('email', '!=', '')
    .executeTakeFirst()
}

export function findUserByAccessToken(db: Executor, accessToken: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('access_token', '=', accessToken).executeTakeFirst()
}

export function findUserByAffCode(db: Executor, affCode: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('aff_code', '=', affCode).executeTakeFirst()
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export type NewUser = Omit<UserRow, 'id'>

export async function insertUser(db: Executor, user: NewUser): Promise<number> {
  const result = await db.insertInto('users').values(user).executeTakeFirstOrThrow()
  if (result.insertId !== undefined) return Number(result.insertId)
  // PostgreSQL reports no insert id without RETURNING; the username is unique.
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', user.username)
    .executeTakeFirstOrThrow()
  return row.id
}

export function addUserQuota(db: Executor, id: number, delta: number) {
  return db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', delta) }))
    .where('id', '=', id)
    .execute()
}

/** Fills the string columns an old one-api row may hold as NULL. */
export function normalizeUser(row: UserRow): UserRow {
  return {
    ...row,
    display_name: row.display_name ?? '',
    email: row.email ?? '',
    github_id: row.github_id ?? '',
    wechat_id: row.wechat_id ?? '',
    lark_id: row.lark_id ?? '',
    oidc_id: row.oidc_id ?? '',
    group: row.group || 'default',
    last_login_ip: row.last_login_ip ?? '',
    last_login_time: Number(row.last_login_time ?? 0),
    created_time: Number(row.created_time ?? 0),
    quota: Number(row.quota ?? 0),
    used_quota: Number(row.used_quota ?? 0),
    request_count: Number(row.request_count ?? 0),
    inviter_id: Number(row.inviter_id ?? 0),
  }
}
