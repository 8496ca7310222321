import type { Kysely } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'

// How long a ledger write on PostgreSQL or MySQL that is known not to have been applied waits
// before each new try. A reservation's client is waiting for it: a few seconds in all. A
// settlement's client has its answer already, and its charge must not be lost to a database that
// restarts or fails over: about a minute in all.
export const RESERVATION_RETRY_DELAYS_MS: readonly number[] = [20, 100, 500, 2_000]
export const SETTLEMENT_RETRY_DELAYS_MS: readonly number[] = [
  20, 100, 500, 1_000, 2_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000,
]

/**
 * Runs a ledger write (PostgreSQL, MySQL) on a connection of its own, and again, after each of
 * `delays`, as long as it fails in a way that shows it was not applied:
 * - it never reached the database: no connection could be had (refused, timed out, the pool
 *   waited past its timeout, the server starting or shutting down), or the connection handed out
 *   was found closed before a statement was sent;
 * - the database rolled it back: a deadlock, a serialization failure, a lock timeout.
 * Trying those again cannot apply a write twice. A write that failed otherwise after reaching the
 * database (its connection dropped mid-way) may have committed, so it is not tried again. The last
 * failure is thrown.
 */
export async function withRetries<T>(
  db: Kysely<MainSchema>,
  delays: readonly number[],
  work: (connection: Kysely<MainSchema>) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let reached = false
    try {
      return await db.connection().execute((connection) => {
        reached = true
        return work(connection)
      })
    } catch (error) {
      const notApplied = !reached || neverSent(error) || wasRolledBack(error)
      if (attempt >= delays.length || !notApplied) throw error
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]))
    }
  }
}

// What pg and mysql2 answer, without sending anything, for a statement given to a connection
// that is already closed (it died idle in the pool a moment before it was handed out).
const NEVER_SENT_MESSAGES = [
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  "Can't add new command when connection is in closed state",
]

function neverSent(error: unknown): boolean {
  return error instanceof Error && NEVER_SENT_MESSAGES.includes(error.message)
}

// PostgreSQL SQLSTATEs and MySQL error numbers of a transaction the database rolled back.
const ROLLED_BACK_SQLSTATES = new Set(['40001', '40P01', '55P03'])
const ROLLED_BACK_MYSQL_ERRNOS = new Set([1213, 1205])

function wasRolledBack(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  return (
    (typeof code === 'string' && ROLLED_BACK_SQLSTATES.has(code)) ||
    (typeof errno === 'number' && ROLLED_BACK_MYSQL_ERRNOS.has(errno))
  )
}
