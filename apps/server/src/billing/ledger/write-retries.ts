import type { Kysely } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'

// How long a failed ledger write on PostgreSQL or MySQL waits before each new try. A reservation's
// client is waiting for it: a few seconds in all. A settlement's client has its answer already,
// and its charge must not be lost to a database that restarts or fails over: about a minute in all.
export const RESERVATION_RETRY_DELAYS_MS: readonly number[] = [20, 100, 500, 2_000]
export const SETTLEMENT_RETRY_DELAYS_MS: readonly number[] = [
  20, 100, 500, 1_000, 2_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000,
]

/**
 * Runs a ledger write (PostgreSQL, MySQL) on a connection of its own, and again after each of
 * `delays` as long as it fails, whatever the failure: a deadlock, no connection to be had, or a
 * connection dropped after the database received the write, which may then have committed or not.
 * So `work` must be safe to repeat: it changes nothing a second time (creating a row that exists),
 * or it finds out itself whether an earlier try landed (the writes guarded by their ids in
 * server-ledger-writes.ts). The last failure is thrown.
 */
export async function withRetries<T>(
  db: Kysely<MainSchema>,
  delays: readonly number[],
  work: (connection: Kysely<MainSchema>) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.connection().execute(work)
    } catch (error) {
      if (attempt >= delays.length) throw error
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]))
    }
  }
}
