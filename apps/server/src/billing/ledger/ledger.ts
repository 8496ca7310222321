import { randomUUID } from 'node:crypto'
import type SqliteDatabase from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { isMysql, isSqlite } from '../../db/dialect.ts'
import type { MainSchema, NewLog } from '../../db/schema.ts'
import { type LostSettlement, type ServerLedgerOptions, ServerLedgerWrites } from './server-ledger-writes.ts'
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

interface QueuedReservation extends ReservationRequest {
  resolve(outcome: ReservationOutcome): void
  reject(error: unknown): void
}

/** A settlement or refund queued on SQLite, with its request's consume log, if any. */
interface QueuedSettlement {
  settlement: Settlement
  log?: NewLog
  resolve(): void
}

/** Where consume logs go when they live in another database than the balances (LOG_SQL_DSN). */
export interface SeparateLogs {
  write(log: NewLog): void
}

export interface LedgerOptions extends ServerLedgerOptions {
  /**
   * Set when the logs live in another database: a log is then written there once its charge is
   * stored (the two cannot share a transaction). Otherwise each log is stored with its charge.
   */
  separateLogs?: SeparateLogs
}

/**
 * The billing ledger: reserve before the upstream call, settle with the real cost afterwards,
 * refund on failure. The reservation is a pair of conditional UPDATEs inside one transaction, so
 * under any concurrency, on one process or many sharing the database, a token or user can never go
 * below zero through reservations; settlement then moves the balance by (actual - reserved).
 */
export class Ledger implements ChargeQueue {
  private readonly prepared?: SqliteLedgerStatements
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
  /** PostgreSQL and MySQL: their writes, batched per token and user. */
  private readonly serverWrites?: ServerLedgerWrites

  /** This process among the gateway's nodes: the quota it holds is recorded under it (quota-holds.ts). */
  readonly nodeId = randomUUID()

  private readonly separateLogs: SeparateLogs | undefined

  /** `options`: where logs go, and how the writes are tried on PostgreSQL and MySQL. */
  constructor(
    db: Kysely<MainSchema>,
    private readonly sqlite?: SqliteDatabase.Database,
    options: LedgerOptions = {},
  ) {
    this.separateLogs = options.separateLogs
    if (sqlite) this.prepared = prepareSqliteLedger(sqlite, this.nodeId)
    else if (!isSqlite(db)) {
      this.serverWrites = new ServerLedgerWrites(db, this.nodeId, !isMysql(db), options)
    }
  }

  get underConcurrentLoad(): boolean {
    return this.lastBatchSize >= CONCURRENT_BATCH
  }

  async reserve(tokenId: number, userId: number, amount: number): Promise<ReserveResult> {
    const reservation: Reservation = { tokenId, userId, amount, settled: false }
    if (amount <= 0) return { ok: true, reservation }
    const now = Math.floor(Date.now() / 1000)
    if (this.prepared) {
      const outcome = await this.queueReservation(tokenId, userId, amount, now)
      return outcome === 'ok' ? { ok: true, reservation } : { ok: false, reason: outcome }
    }
    if (!this.serverWrites) throw new Error('the ledger needs better-sqlite3 on SQLite')
    const outcome = await this.serverWrites.reserve(tokenId, userId, amount, now)
    return outcome === 'ok' ? { ok: true, reservation } : { ok: false, reason: outcome }
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

  get hasQueuedCharges(): boolean {
    return this.pendingSettlements.length > 0
  }

  onCommitted(listener: () => void): void {
    this.committedListeners.push(listener)
  }

  /** Resolves once the batch holding this reservation has committed; rejects if that batch failed. */
  private queueReservation(
    tokenId: number,
    userId: number,
    amount: number,
    now: number,
  ): Promise<ReservationOutcome> {
    return new Promise((resolve, reject) => {
      this.pendingReservations.push({ tokenId, userId, amount, now, resolve, reject })
      this.scheduleFlush()
    })
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

  /**
   * Charges `actual` for the request: the difference to the reservation goes back to (or is taken
   * from) the token and user, and the usage counters move. Runs at most once per reservation.
   * `log`, the request's consume log, is stored in the same transaction as the charge (or, when
   * the logs live in another database, written there once the charge is stored). Resolves once
   * both are stored: the caller ends the client's answer then, so that an answer a client received
   * whole is never lost from the books by a crash.
   */
  async settle(reservation: Reservation, actual: number, channelId: number, log?: NewLog): Promise<void> {
    if (reservation.settled) return
    reservation.settled = true
    const settlement: Settlement = [
      reservation.tokenId,
      reservation.userId,
      channelId,
      reservation.amount,
      actual,
      1,
    ]
    const logWithCharge = this.separateLogs ? undefined : log
    if (this.prepared) {
      await new Promise<void>((resolve) => {
        this.pendingSettlements.push({ settlement, log: logWithCharge, resolve })
        this.scheduleFlush()
      })
    } else {
      await this.serverWrites?.settle(settlement, logWithCharge)
    }
    if (log && this.separateLogs) this.separateLogs.write(log)
  }

  /**
   * Commits everything queued on SQLite, reservations and settlements, in one transaction, now
   * rather than when its batch is due. False when the commit has to wait (the query builder holds
   * the connection in a transaction, or the other writer is writing): it is then made as soon as
   * it can be. Throws if the commit failed: nothing of the batch was applied, its reservations are
   * refused with that error and its settlements stay queued for the next attempt.
   */
  flushSettlements(): boolean {
    return this.flush(false)
  }

  /**
   * SQLite: commits what is queued (see flushSettlements), waiting for the write lock if need be;
   * throws if the commit failed. Should the query builder hold the connection in a transaction,
   * the commit follows right after that one.
   * PostgreSQL and MySQL: waits up to `waitMs` for the settlements and refunds still being tried,
   * and returns those that never reached the database (see ServerLedgerWrites.close).
   */
  async close(waitMs = 0): Promise<LostSettlement[]> {
    this.flush(true)
    return (await this.serverWrites?.close(waitMs)) ?? []
  }

  private flush(evenWhileOtherWrites: boolean): boolean {
    if (this.flushImmediate) clearImmediate(this.flushImmediate)
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushImmediate = undefined
    this.flushTimer = undefined
    if (!this.prepared) return true
    if (this.pendingReservations.length === 0 && this.pendingSettlements.length === 0) return true
    if (this.sqlite?.inTransaction) {
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
      // Their requests were answered and are billed already: keep the charges and try again.
      this.pendingSettlements = settlements.concat(this.pendingSettlements)
      if (settlements.length > 0) {
        this.flushTimer = setTimeout(() => this.flushInBackground(), FAILED_COMMIT_RETRY_MS)
      }
      throw error
    }
    this.lastBatchSize = reservations.length
    for (const [index, reservation] of reservations.entries()) reservation.resolve(outcomes[index])
    for (const settlement of settlements) settlement.resolve()
    for (const listener of this.committedListeners) listener()
    return true
  }

  /** A flush nobody waits for: a failure has reached the batch's reservations already. */
  private flushInBackground(): void {
    try {
      this.flush(false)
    } catch {
      // Refused reservations carry the error; settlements are retried by the timer flush() set.
    }
  }

  /** Gives a failed request's reservation back; the request is not counted. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.settled) return
    reservation.settled = true
    const amount = reservation.amount
    if (amount <= 0) return
    const refund: Settlement = [reservation.tokenId, reservation.userId, 0, amount, 0, 0]
    if (this.prepared) {
      // Through the settlement queue, committed at once: the quota is usable by the retry that
      // usually follows on another channel.
      this.pendingSettlements.push({ settlement: refund, resolve: () => {} })
      this.flushInBackground()
      return
    }
    await this.serverWrites?.settle(refund)
  }
}
