import type { Kysely, Transaction } from 'kysely'
import { isSqlite } from '../dialect.ts'
import type { MainSchema } from '../schema.ts'

/**
 * Runs `work` in a transaction with `quota` less what the gateway's nodes hold for requests of
 * token (or user) `id` in flight (billing/ledger/quota-holds.ts). A balance an administrator sets
 * is what is left once those requests have settled: their reservations were taken from the old
 * balance, and settling gives back what they did not spend.
 *
 * The row is locked first (PostgreSQL, MySQL), so the holds are read after any reservation of that
 * row has committed (without the lock, PostgreSQL read the holds from before a reservation the
 * update then waited for, and the balance came out as much too high); SQLite runs one writer at a
 * time. The holds are read by a plain select, which locks nothing: read inside the update, MySQL
 * locked every hold row it scanned, after the balance row, while the ledger locks its hold row
 * before the balance row, and edits of a busy balance deadlocked.
 */
export function withQuotaLessHolds<Result>(
  db: Kysely<MainSchema>,
  table: 'tokens' | 'users',
  id: number,
  quota: number,
  work: (trx: Transaction<MainSchema>, quotaLessHolds: number) => Promise<Result>,
): Promise<Result> {
  return db.transaction().execute(async (trx) => {
    if (!isSqlite(db)) await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute()
    const { held } = await trx
      .selectFrom('quota_holds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('held'))
      .where(table === 'tokens' ? 'token_id' : 'user_id', '=', id)
      .where('amount', '>', 0)
      .executeTakeFirstOrThrow()
    return work(trx, quota - Number(held))
  })
}
