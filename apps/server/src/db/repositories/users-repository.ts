import { UserStatus } from '@one-api/contracts'
import { type Kysely, type Selectable, sql, type Transaction, type UpdateObject } from 'kysely'
import { type Dialect, startsWith } from '../dialect.ts'
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

export type NewUser = Omit<UserRow, 'id' | 'session_version'>

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
    session_version: Number(row.session_version ?? 0),
  }
}

// ---- Administration: lists, search and status changes (admin/users) ----

const DELETED_STATUS = 3

export type UserListOrder = 'quota' | 'used_quota' | 'request_count' | 'id'

/** One page of the users that are not deleted, by the column descending, then newest first. */
export function listUsers(db: Executor, order: UserListOrder, offset: number, limit: number) {
  let query = db.selectFrom('users').selectAll().where('status', '!=', DELETED_STATUS)
  if (order !== 'id') query = query.orderBy(order, 'desc')
  return query.orderBy('id', 'desc').limit(limit).offset(offset).execute()
}

export interface UserSearch {
  /** Matches the id exactly, or a username, email or display name by prefix. */
  keyword: string
  /** Matches the last sign-in address exactly. */
  ip: string
}

export function searchUsers(db: Executor, dialect: Dialect, search: UserSearch, limit: number) {
  let query = db.selectFrom('users').selectAll().where('status', '!=', DELETED_STATUS)
  if (search.keyword) {
    const id = /^\d{1,9}$/.test(search.keyword) ? Number(search.keyword) : undefined
    query = query.where((eb) =>
      eb.or([
        ...(id === undefined ? [] : [eb('id', '=', id)]),
        startsWith('username', search.keyword, dialect),
        startsWith('email', search.keyword, dialect),
        startsWith('display_name', search.keyword, dialect),
      ]),
    )
  }
  if (search.ip) query = query.where('last_login_ip', '=', search.ip)
  return query.orderBy('id', 'desc').limit(limit).execute()
}

/** Users whose last sign-in address is shared with another user: likely duplicate registrations. */
export function listUsersSharingIp(db: Executor, offset: number, limit: number) {
  const sharedAddresses = db
    .selectFrom('users')
    .select('last_login_ip')
    .where('last_login_ip', '!=', '')
    .where('status', '!=', DELETED_STATUS)
    .groupBy('last_login_ip')
    .having((eb) => eb.fn.countAll(), '>', 1)
  return db
    .selectFrom('users')
    .selectAll()
    .where('status', '!=', DELETED_STATUS)
    .where('last_login_ip', 'in', sharedAddresses)
    .orderBy('last_login_ip')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute()
}

/**
 * Writes the changes. A write that sets a new password or a status other than enabled (disabled,
 * deleted) also ends every session of the user, so a copied cookie stops working on every node.
 */
export async function updateUserFields(db: Executor, id: number, changes: UpdateObject<MainSchema, 'users'>) {
  const endsSessions =
    changes.password !== undefined || (changes.status !== undefined && changes.status !== 1)
  await db
    .updateTable('users')
    .set(endsSessions ? { ...changes, session_version: nextSessionVersion } : changes)
    .where('id', '=', id)
    .execute()
}

const nextSessionVersion = sql<number>`session_version + 1`

/** Ends every session of the user: cookies issued before this call are refused from now on. */
export async function endUserSessions(db: Executor, id: number): Promise<void> {
  await db.updateTable('users').set({ session_version: nextSessionVersion }).where('id', '=', id).execute()
}

/**
 * Soft delete as one-api: the row stays for logs and quota history, the username is freed and the
 * access token revoked. `freedUsername` is the new, unique name.
 */
export async function softDeleteUser(db: Executor, id: number, freedUsername: string) {
  await updateUserFields(db, id, { status: DELETED_STATUS, username: freedUsername, access_token: null })
}

/**
 * Adds `delta` to a user's quota unless the user is deleted or, for a debit, the balance would go
 * below zero; one conditional statement, so concurrent spending cannot slip in between.
 * Returns whether the row changed.
 */
export async function adjustUserQuota(db: Executor, id: number, delta: number): Promise<boolean> {
  let query = db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', delta) }))
    .where('id', '=', id)
    .where('status', '!=', DELETED_STATUS)
  if (delta < 0) query = query.where('quota', '>=', -delta)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** The live (not deleted) user bound to an external sign-in identity, if any. */
export function findUserByIdentity(
  db: Executor,
  column: 'github_id' | 'lark_id' | 'wechat_id' | 'oidc_id',
  subject: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', subject)
    .where('status', '!=', UserStatus.deleted)
    .executeTakeFirst()
}
