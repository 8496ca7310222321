import type SqliteDatabase from 'better-sqlite3'
import type { NewLog } from '../../db/schema.ts'
import type { ChargeQueue, SharedWriter } from './ledger-types.ts'
import {
  prepareSqliteLedger,
  type ReservationOutcome,
  type ReservationRequest,
  type Settlement,
  type SqliteLedgerStatements,
} from './sqlite-ledger-statements.ts'

// On SQLite the ledger's writes are queued and committed together, because the commit, not the
// updates, is what costs. Reservations and settlements wait until the end of the current turn of
// the event loop, or a few turns under concurrent load (their callers wait for them: a settled
// request's answer ends once its charge and log are stored).
const BATCH_SIZE = 256
// How soon a batch whose commit failed is tried again.
const FAILED_COMMIT_RETRY_MS = 10
// Under concurrent load (the last batch carried CONCURRENT_BATCH reservations or more) a batch is
// committed CONCURRENT_TURNS turns of the event loop later, so that many more reservations share
// its commit, without adding latency under load (docs/decisions/sqlite-ledger-batching.md). When the
// loop is not busy its turns take microseconds, and a lone request is committed in its own turn.
const CONCURRENT_BATCH = 4
const CONCURRENT_TURNS = 8
// While the query builder holds the connection in a transaction, how soon to try again.
const BUSY_CONNECTION_RETRY_MS = 1

interface QueuedReservation extends ReservationRequest {
  resolve(outcome: ReservationOutcome): void
  reject(error: unknown): void
}

/** A settlement or refund queued on SQLite, with its request's consume log, if any. */
interface QueuedSettlement {
  settlement: Settlement
  log?: NewLog
  resolve(): void
  reject(error: unknown): void
  /** When its first commit failed (ms): it is given up after the retry window. */
  failingSince?: number
}

/**
 * The ledger's writes on SQLite: reservations, settlements and refunds queued and committed in
 * one transaction per batch (with the consume logs of the settlements), from prepared statements.
 */
export class SqliteLedgerBatches implements ChargeQueue {
  private readonly prepared: SqliteLedgerStatements
  private pendingReservations: QueuedReservation[] = []
  private pendingSettlements: QueuedSettlement[] = []
  private flushImmediate: NodeJS.Immediate | undefined
  private flushTimer: NodeJS.Timeout | undefined
  private otherWriter: SharedWriter | undefined
  /** A commit was held back while the other writer wrote: it goes when that one is done. */
  private heldBack = false
  private readonly committedListeners: Array<() => void> = []
  /** Reservations in the last batch committed: tells a lone request from concurrent load. */
  private lastBatchSize = 0

  /**
   * `givesUpAfterMs`: how long a failing settlement is retried before its caller is told (so it
   * can keep the charge elsewhere); undefined: retried for as long as the node runs.
   */
  constructor(
    private readonly sqlite: SqliteDatabase.Database,
    nodeId: string,
    private readonly givesUpAfterMs: number | undefined,
  ) {
    this.prepared = prepareSqliteLedger(sqlite, nodeId)
  }

  get underConcurrentLoad(): boolean {
    return this.lastBatchSize >= CONCURRENT_BATCH
  }

  get hasQueuedCharges(): boolean {
    return this.pendingSettlements.length > 0
  }

  onCommitted(listener: () => void): void {
    this.committedListeners.push(listener)
  }

  /**
   * Commits take turns with `writer`: none is attempted while it writes, and one held back
   * meanwhile is made as soon as it is done. Otherwise a commit would find the write lock taken
   * and put the event loop to sleep (SQLite's busy wait) until it is free. When nothing was held
   * back, its being done commits nothing, so that batches are not cut short.
   */
  shareWriteLockWith(writer: SharedWriter): void {
    this.otherWriter = writer
    writer.onWriteDone(() => {
      if (this.heldBack) this.flushInBackground()
    })
  }

  /** Resolves once the batch holding this reservation has committed; rejects if that batch failed. */
  reserve(tokenId: number, userId: number, amount: number, now: number): Promise<ReservationOutcome> {
    return new Promise((resolve, reject) => {
      this.pendingReservations.push({ tokenId, userId, amount, now, resolve, reject })
      this.scheduleFlush()
    })
  }

  /** One settlement or refund, in the next batch; rejects when given up (see givesUpAfterMs). */
  write(settlement: Settlement, log: NewLog | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pendingSettlements.push({ settlement, log, resolve, reject })
      // A refund is committed at once: the quota is usable by the retry that usually follows on
      // another channel.
      if (settlement[5] === 0) this.flushInBackground()
      else this.scheduleFlush()
    })
  }

  /**
   * Commits everything queued, reservations and settlements, in one transaction, now rather than
   * when its batch is due. False when the commit has to wait (the query builder holds the
   * connection in a transaction, or the other writer is writing): it is then made as soon as it
   * can be. Throws if the commit failed: nothing of the batch was applied, its reservations are
   * refused with that error and its settlements stay queued for the next attempt.
   */
  flushSettlements(): boolean {
    return this.flush(false)
  }

  /** Commits what is queued, waiting for the write lock if need be; throws if the commit failed. */
  close(): void {
    this.flush(true)
  }

  /** A batch goes when it is full, else at the end of this turn (a few turns under load). */
  private scheduleFlush(): void {
    if (this.pendingReservations.length + this.pendingSettlements.length >= BATCH_SIZE) {
      this.flushInBackground()
    } else if (!this.flushImmediate && !this.flushTimer) {
      this.flushAfterTurns(this.lastBatchSize >= CONCURRENT_BATCH ? CONCURRENT_TURNS : 1)
    }
  }

  /** Commits at the end of the event-loop turn `turns` from now (1: this one). */
  private flushAfterTurns(turns: number): void {
    this.flushImmediate = setImmediate(() => {
      if (turns > 1) this.flushAfterTurns(turns - 1)
      else this.flushInBackground()
    })
  }

  private flush(evenWhileOtherWrites: boolean): boolean {
    if (this.flushImmediate) clearImmediate(this.flushImmediate)
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushImmediate = undefined
    this.flushTimer = undefined
    if (this.pendingReservations.length === 0 && this.pendingSettlements.length === 0) return true
    if (this.sqlite.inTransaction) {
      // The builder holds the connection in a transaction, which our statements would join (and
      // share its rollback): try again right after it.
      this.flushTimer = setTimeout(() => this.flushInBackground(), BUSY_CONNECTION_RETRY_MS)
      return false
    }
    // What is queued waits for the other writer to be done (see shareWriteLockWith).
    if (!evenWhileOtherWrites && this.otherWriter?.writing) {
      this.heldBack = true
      return false
    }
    this.heldBack = false
    const reservations = this.pendingReservations
    const settlements = this.pendingSettlements
    this.pendingReservations = []
    this.pendingSettlements = []
    let outcomes: ReservationOutcome[]
    try {
      const logs: NewLog[] = []
      for (const { log } of settlements) if (log) logs.push(log)
      outcomes = this.prepared.commitBatch(
        reservations,
        settlements.map((queued) => queued.settlement),
        logs,
      )
    } catch (error) {
      for (const reservation of reservations) reservation.reject(error)
      this.retryLater(settlements, error)
      throw error
    }
    this.lastBatchSize = reservations.length
    for (const [index, reservation] of reservations.entries()) reservation.resolve(outcomes[index])
    for (const settlement of settlements) settlement.resolve()
    for (const listener of this.committedListeners) listener()
    return true
  }

  /**
   * Settlements whose commit failed: their requests were answered and are billed already, so the
   * charges are kept and tried again, until givesUpAfterMs (their callers then keep them).
   */
  private retryLater(settlements: QueuedSettlement[], error: unknown): void {
    const now = Date.now()
    const retried: QueuedSettlement[] = []
    for (const queued of settlements) {
      queued.failingSince ??= now
      const givenUp = this.givesUpAfterMs !== undefined && now - queued.failingSince >= this.givesUpAfterMs
      if (givenUp) queued.reject(error)
      else retried.push(queued)
    }
    this.pendingSettlements = retried.concat(this.pendingSettlements)
    if (retried.length > 0) {
      this.flushTimer = setTimeout(() => this.flushInBackground(), FAILED_COMMIT_RETRY_MS)
    }
  }

  /** A flush nobody waits for: a failure has reached the batch's reservations already. */
  private flushInBackground(): void {
    try {
      this.flush(false)
    } catch {
      // Refused reservations carry the error; settlements are retried by the timer flush() set.
    }
  }
}
