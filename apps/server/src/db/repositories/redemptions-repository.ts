import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely'
import type { Dialect } from '../dialect.ts'
import { startsWith } from '../dialect.ts'
import type { MainSchema, RedemptionsTable } from '../schema.ts'

export type RedemptionRow = Selectable<RedemptionsTable>
type Executor = Kysely<MainSchema> | Transaction<MainSchema>

const UNUSED = 1
const USED = 3

export function findRedemptionById(db: Executor, id: number): Promise<RedemptionRow | undefined> {
  return db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findRedemptionByKey(db: Executor, key: string): Promise<RedemptionRow | undefined> {
  return db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirst()
}

/** Newest first, one page. */
export function listRedemptions(db: Executor, offset: number, limit: number) {
  return db.selectFrom('redemptions').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute()
}

/** By exact id or name prefix, newest first. */
export function searchRedemptions(db: Executor, dialect: Dialect, keyword: string, limit: number) {
  let query = db.selectFrom('redemptions').selectAll()
  if (keyword) {
    const id = /^\d{1,9}$/.test(keyword) ? Number(keyword) : undefined
    query = query.where((eb) =>
      eb.or([...(id === undefined ? [] : [eb('id', '=', id)]), startsWith('name', keyword, dialect)]),
    )
  }
  return query.orderBy('id', 'desc').limit(limit).execute()
}

export async function insertRedemptions(db: Executor, rows: Insertable<RedemptionsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('redemptions').values(rows).execute()
}

/** Updates a code unless it has been used; returns whether a row changed. */
export async function updateUnusedRedemption(
  db: Executor,
  id: number,
  changes: Updateable<RedemptionsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set(changes)
    .where('id', '=', id)
    .where('status', '!=', USED)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function updateRedemption(db: Executor, id: number, changes: Updateable<RedemptionsTable>) {
  await db.updateTable('redemptions').set(changes).where('id', '=', id).execute()
}

export async function deleteRedemption(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('redemptions').where('id', '=', id).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/**
 * Marks an unused code as used in one conditional statement: of two transactions racing for the
 * same code, the database lets exactly one change the row; the other sees zero rows changed.
 */
export async function claimRedemption(db: Executor, key: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ status: USED, redeemed_time: now })
    .where('key', '=', key)
    .where('status', '=', UNUSED)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
