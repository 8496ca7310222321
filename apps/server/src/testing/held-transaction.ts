import type { Kysely, Transaction } from 'kysely'

/** A transaction kept open by a test: what it locked stays locked until `commit()`. */
export interface HeldTransaction {
  /** Lets the transaction commit. */
  commit(): void
  /** Settles when it has committed (or failed). */
  readonly finished: Promise<void>
}

/**
 * Runs `lock` in a transaction of its own and keeps that transaction open (its row locks held)
 * until the test calls `commit()`. Resolves once `lock` has run, so the locks are taken.
 */
export async function holdTransaction<Schema>(
  db: Kysely<Schema>,
  lock: (trx: Transaction<Schema>) => Promise<unknown>,
): Promise<HeldTransaction> {
  let commit!: () => void
  const committed = new Promise<void>((resolve) => {
    commit = resolve
  })
  let locked!: () => void
  const lockTaken = new Promise<void>((resolve) => {
    locked = resolve
  })
  const finished = db.transaction().execute(async (trx) => {
    await lock(trx)
    locked()
    await committed
  })
  // A lock that failed ends the wait too; `finished` carries the failure.
  await Promise.race([lockTaken, finished])
  return { commit, finished }
}
