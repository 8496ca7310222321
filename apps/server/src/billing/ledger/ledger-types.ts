/* The ledger's shapes as its callers see them (the relay, the log writer), apart from its writes. */

/** Quota held for one request between its reservation and its settlement. */
export interface Reservation {
  tokenId: number
  userId: number
  amount: number
  settled: boolean
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; reason: 'token' | 'user' }

/**
 * Another writer of the same SQLite database in this process (the log write thread). The ledger
 * commits nothing while it writes; what was held back meanwhile goes as soon as it is done.
 */
export interface SharedWriter {
  /** True while it may hold the database's write lock. */
  readonly writing: boolean
  /** Calls `listener` each time it is done writing. */
  onWriteDone(listener: () => void): void
}

/**
 * The ledger as a log writer sees it: a consume log is stored only once its charge is, so the
 * logs never show a charge the balances do not.
 */
export interface ChargeQueue {
  /** True while some settlement or refund is queued and not yet committed. */
  readonly hasQueuedCharges: boolean
  /** Calls `listener` after every successful commit (everything queued before it is stored). */
  onCommitted(listener: () => void): void
  /** Commits what is queued now; false when the commit has to wait (see Ledger.flushSettlements). */
  flushSettlements(): boolean
  /** True under concurrent load: the last commit carried several reservations. */
  readonly underConcurrentLoad: boolean
}

/** A new request on a token whose charge waits in the spool (see ChargeSpool). */
export class ChargesPending extends Error {
  constructor(readonly tokenId: number) {
    super(`a charge of token ${tokenId} could not be stored yet`)
  }
}
