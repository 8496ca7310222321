import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import type { MainSchema } from '../schema.ts'
import { isSqlite } from './log-totals.ts'

/**
 * `quota` less what the gateway's nodes hold for requests of token `tokenId` (or user `userId`) in
 * flight (billing/ledger/quota-holds.ts), as one SQL value. A balance an administrator sets is what
 * is left once those requests have settled: their reservations were taken from the old balance,
 * and settling gives back what they did not spend.
 */
export function quotaLessHolds(
  quota: number,
  owner: { tokenId: number } | { userId: number },
): RawBuilder<number> {
  const held =
    'tokenId' in owner
      ? sql`select coalesce(sum(amount), 0) from quota_holds where token_id = ${owner.tokenId} and amount > 0`
      : sql`select coalesce(sum(amount), 0) from quota_holds where user_id = ${owner.userId} and amount > 0`
  return sql<number>`${quota} - (${held})`
}

/**
 * Runs `work` in a transaction that first locks row `id` of `table`, so that quotaLessHolds reads
 * the holds after any reservation of that row has committed. Without the lock, PostgreSQL read the
 * holds from before a reservation the update then waited for, and the balance came out as much too
 * high. (SQLite runs one writer at a time: the update alone is enough there.)
 */
export function withQuotaRowLocked<Result>(
  db: Kysely<MainSchema>,
  table: 'tokens' | 'users',
  id: number,
  work: (trx: Transaction<MainSchema>) => Promise<Result>,
): Promise<Result> {
  return db.transaction().execute(async (trx) => {
    if (!isSqlite(db)) await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute()
    return work(trx)
  })
}
