import type { Kysely } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'
import { withinTime } from '../../platform/time-limit.ts'

/** How a ledger write on PostgreSQL or MySQL is tried (see withRetries). */
export interface RetryPolicy {
  /** How long to wait before each new try after a failed one. */
  readonly delays: readonly number[]
  /** A try that has not answered in this long counts as failed. */
  readonly attemptTimeoutMs: number
}

// A reservation's client is waiting for it: a few seconds of retries in all. A settlement's client
// has its answer already, and its charge must not be lost to a database that restarts or fails
// over: rounds of about a minute, for as long as the node runs (ServerLedgerWrites). A try normally takes milliseconds; one that waits seconds is stuck (a
// connection whose server stopped answering, a lock held by a stuck transaction).
export const RESERVATION_RETRIES: RetryPolicy = { delays: [20, 100, 500, 2_000], attemptTimeoutMs: 5_000 }
export const SETTLEMENT_RETRIES: RetryPolicy = {
  delays: [
    20, 100, 500, 1_000, 2_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000,
  ],
  attemptTimeoutMs: 15_000,
}

/** A try that took longer than its policy allows. */
export class WriteAttemptTimedOut extends Error {
  constructor(ms: number) {
    super(`the database did not answer a ledger write within ${ms} ms`)
  }
}

/**
 * Runs a ledger write (PostgreSQL, MySQL) on a connection of its own, and again after each of the
 * policy's delays as long as it fails, whatever the failure: a deadlock, no connection to be had, a
 * connection dropped after the database received the write (which may then have committed or
 * not), or no answer within the policy's time. A try given up on that way is left to finish or
 * fail on its own connection (pg and mysql2 cannot take a statement back), and the next try takes
 * another connection: without that, a database that stopped answering held its requests for as
 * long as TCP took to notice, minutes. So `work` must be safe to repeat, even while an earlier try
 * may still run: it changes nothing a second time (creating a row that exists), or it finds out
 * itself whether an earlier try landed (the writes guarded by their ids in server-ledger-writes.ts).
 * The last failure is thrown.
 */
export async function withRetries<T>(
  db: Kysely<MainSchema>,
  policy: RetryPolicy,
  work: (connection: Kysely<MainSchema>) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      const attempt = await withinTime(db.connection().execute(work), policy.attemptTimeoutMs)
      if (!attempt.finished) throw new WriteAttemptTimedOut(policy.attemptTimeoutMs)
      return attempt.value
    } catch (error) {
      if (attempt >= policy.delays.length) throw error
      await new Promise((resolve) => setTimeout(resolve, policy.delays[attempt]))
    }
  }
}

/**
 * The settlement policy cut to `windowMs`: the delays that fit in it, and tries that time out
 * within it (a charge that went to the spool is not left waiting longer than that).
 */
export function settlementRetriesWithin(windowMs: number): RetryPolicy {
  const delays: number[] = []
  let total = 0
  for (const delay of SETTLEMENT_RETRIES.delays) {
    if (total + delay > windowMs) break
    delays.push(delay)
    total += delay
  }
  return {
    delays,
    attemptTimeoutMs: Math.min(SETTLEMENT_RETRIES.attemptTimeoutMs, Math.max(windowMs, 1_000)),
  }
}
