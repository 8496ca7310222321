import type { Insertable, Kysely, RawBuilder, Selectable, Transaction } from 'kysely'
import { startsWith } from '../dialect.ts'
import type { MainSchema, TokensTable } from '../schema.ts'

type Executor = Kysely<MainSchema> | Transaction<MainSchema>

/** An unlimited, never-expiring token: every new user's `default` and INITIAL_ROOT_TOKEN. */
export function unlimitedToken(userId: number, name: string, key: string): Insertable<TokensTable> {
  const now = Math.floor(Date.now() / 1000)
  return {
    user_id: userId,
    key,
    status: 1,
    name,
    created_time: now,
    accessed_time: now,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: true,
    used_quota: 0,
    models: '',
    subnet: '',
  }
}

export async function insertToken(db: Executor, token: Insertable<TokensTable>): Promise<void> {
  await db.insertInto('tokens').values(token).execute()
}

export type TokenRow = Selectable<TokensTable>
export type TokenListOrder = 'id' | 'remain_quota' | 'used_quota'
export type TokenChanges = Partial<
  Pick<TokenRow, 'name' | 'status' | 'expired_time' | 'unlimited_quota' | 'models' | 'subnet'>
> & { remain_quota?: number | RawBuilder<number> }

/**
 * Every query below is scoped by `user_id` as well as by id: a user reaches their own tokens only,
 * and another user's id behaves exactly like a missing one.
 */
export function findOwnToken(db: Executor, userId: number, id: number): Promise<TokenRow | undefined> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

export function findTokenByKey(db: Executor, key: string): Promise<TokenRow | undefined> {
  return db.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirst()
}

/** One page of a user's tokens; every order ends with id so pages never overlap. */
export function listOwnTokens(
  db: Executor,
  userId: number,
  order: TokenListOrder,
  offset: number,
  limit: number,
): Promise<TokenRow[]> {
  let query = db.selectFrom('tokens').selectAll().where('user_id', '=', userId)
  if (order === 'remain_quota') {
    query = query.orderBy('unlimited_quota', 'desc').orderBy('remain_quota', 'desc')
  } else if (order === 'used_quota') {
    query = query.orderBy('used_quota', 'desc')
  }
  return query.orderBy('id', 'desc').limit(limit).offset(offset).execute()
}

/** A user's tokens whose name starts with `prefix` (wildcards in it match literally), newest first. */
export function searchOwnTokens(
  db: Executor,
  userId: number,
  prefix: string,
  limit: number,
): Promise<TokenRow[]> {
  let query = db.selectFrom('tokens').selectAll().where('user_id', '=', userId)
  if (prefix !== '') query = query.where(startsWith('name', prefix))
  return query.orderBy('id', 'desc').limit(limit).execute()
}

/** Inserts a token and reads it back by its unique key (PostgreSQL reports no insert id). */
export async function createToken(db: Executor, token: Insertable<TokensTable>): Promise<TokenRow> {
  await insertToken(db, token)
  const row = await findTokenByKey(db, token.key)
  if (!row) throw new Error('token vanished right after insert')
  return row
}

export async function updateOwnToken(
  db: Executor,
  userId: number,
  id: number,
  changes: TokenChanges,
): Promise<void> {
  await db.updateTable('tokens').set(changes).where('id', '=', id).where('user_id', '=', userId).execute()
}

export async function deleteOwnToken(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
