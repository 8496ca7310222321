// How long a ledger transaction on PostgreSQL or MySQL that the database rolled back (a deadlock,
// a serialization failure) waits before each new try.
const RETRY_DELAYS_MS = [20, 100, 500, 2_000]

/**
 * Runs a ledger transaction (PostgreSQL, MySQL) again when the database refused it
 * as a deadlock, a serialization failure or a lock timeout: those must not lose a charge or keep
 * a reservation for good (SQLite keeps failed batches queued instead). Such a transaction was
 * rolled back, so trying again cannot apply it twice. Other failures, a dropped connection among
 * them (the commit may have landed), are not tried again. The last failure is thrown.
 */
export async function withRetries<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (attempt >= RETRY_DELAYS_MS.length || !wasRolledBack(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]))
    }
  }
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
