import { randomUUID } from 'node:crypto'
import type SqliteDatabase from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { isMysql, isSqlite } from '../../db/dialect.ts'
import type { MainSchema, NewLog } from '../../db/schema.ts'
import { safeQuota } from '../usage-bounds.ts'
import { ChargeSpool, type KeptCharge } from './charge-spool.ts'
import {
  type ChargeQueue,
  ChargesPending,
  type Reservation,
  type ReserveResult,
  type SharedWriter,
} from './ledger-types.ts'
import { type LostSettlement, type ServerLedgerOptions, ServerLedgerWrites } from './server-ledger-writes.ts'
import { SqliteLedgerBatches } from './sqlite-ledger-batches.ts'
import type { Settlement } from './sqlite-ledger-statements.ts'

/** Where consume logs go when they live in another database than the balances (LOG_SQL_DSN). */
export interface SeparateLogs {
  write(log: NewLog): void
}

export interface LedgerOptions extends ServerLedgerOptions {
  /**
   * Where a charge the database did not take within `retryWindowMs` is kept until it does; its
   * token is refused new requests meanwhile. Unset: charges are retried for as long as the node
   * runs, their clients waiting.
   */
  spoolDirectory?: string
  /** SQLite: how long a failing charge is retried before it goes to the spool. */
  retryWindowMs?: number
  /** A charge went to the spool (`error`: why the database did not take it). */
  onChargeKept?: (charge: KeptCharge, error: unknown) => void
  /** A charge kept in the spool reached the database. */
  onChargeApplied?: (charge: KeptCharge) => void
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
  /** SQLite: its writes, queued and committed in batches. */
  private readonly batches?: SqliteLedgerBatches
  /** PostgreSQL and MySQL: their writes, batched per token and user. */
  private readonly serverWrites?: ServerLedgerWrites

  /** This process among the gateway's nodes: the quota it holds is recorded under it (quota-holds.ts). */
  readonly nodeId = randomUUID()

  private readonly separateLogs: SeparateLogs | undefined
  /** Charges the database did not take in time, kept until it does (see ChargeSpool). */
  readonly spool: ChargeSpool | undefined
  private readonly retryWindowMs: number
  private replaying: Promise<void> | undefined

  /** `options`: where logs go, and how the writes are tried on PostgreSQL and MySQL. */
  constructor(
    db: Kysely<MainSchema>,
    sqlite?: SqliteDatabase.Database,
    private readonly options: LedgerOptions = {},
  ) {
    this.separateLogs = options.separateLogs
    this.spool = options.spoolDirectory ? new ChargeSpool(options.spoolDirectory, this.nodeId) : undefined
    this.retryWindowMs = options.retryWindowMs ?? 60_000
    // Without a spool a failing charge is retried for as long as the node runs.
    const givesUpAfterMs = this.spool ? this.retryWindowMs : undefined
    if (sqlite) this.batches = new SqliteLedgerBatches(sqlite, this.nodeId, givesUpAfterMs)
    else if (!isSqlite(db)) {
      this.serverWrites = new ServerLedgerWrites(db, this.nodeId, !isMysql(db), options)
    }
  }

  get underConcurrentLoad(): boolean {
    return this.batches?.underConcurrentLoad ?? false
  }

  get hasQueuedCharges(): boolean {
    return this.batches?.hasQueuedCharges ?? false
  }

  /** Calls `listener` after every commit of a batch (SQLite; the other databases have none). */
  onCommitted(listener: () => void): void {
    this.batches?.onCommitted(listener)
  }

  /** SQLite: commits take turns with the log write thread (see SqliteLedgerBatches). */
  shareWriteLockWith(writer: SharedWriter): void {
    this.batches?.shareWriteLockWith(writer)
  }

  /** SQLite: commits what is queued now (see SqliteLedgerBatches.flushSettlements). */
  flushSettlements(): boolean {
    return this.batches?.flushSettlements() ?? true
  }

  async reserve(tokenId: number, userId: number, requested: number): Promise<ReserveResult> {
    // Whole and bounded, whatever the caller computed: no float or overflow reaches a column.
    const amount = safeQuota(requested)
    // Fail closed: a token whose charge is not stored yet is served again once it is.
    if (this.spool?.blocks(tokenId)) throw new ChargesPending(tokenId)
    const reservation: Reservation = { tokenId, userId, amount, settled: false }
    if (amount <= 0) return { ok: true, reservation }
    const now = Math.floor(Date.now() / 1000)
    if (this.batches) {
      const outcome = await this.batches.reserve(tokenId, userId, amount, now)
      return outcome === 'ok' ? { ok: true, reservation } : { ok: false, reason: outcome }
    }
    if (!this.serverWrites) throw new Error('the ledger needs better-sqlite3 on SQLite')
    const outcome = await this.serverWrites.reserve(tokenId, userId, amount, now)
    return outcome === 'ok' ? { ok: true, reservation } : { ok: false, reason: outcome }
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
      safeQuota(actual),
      1,
    ]
    await this.store(settlement, this.separateLogs ? undefined : log)
    if (log && this.separateLogs) this.separateLogs.write(log)
  }

  /**
   * Stores a settlement or refund; one the database does not take within its retries goes to the
   * spool (when there is one), which counts as stored. Throws when neither took it.
   */
  private async store(settlement: Settlement, log: NewLog | undefined): Promise<void> {
    try {
      await this.write(settlement, log)
    } catch (error) {
      if (!this.spool) throw error
      const kept = this.spool.keep(settlement, log)
      this.options.onChargeKept?.(kept, error)
    }
  }

  /** One settlement or refund to the database (SQLite: in the next batch); rejects when given up. */
  private write(settlement: Settlement, log: NewLog | undefined): Promise<void> {
    if (this.batches) return this.batches.write(settlement, log)
    return this.serverWrites ? this.serverWrites.settle(settlement, log) : Promise.resolve()
  }

  /**
   * Applies the charges waiting in the spool: this node's, and those of nodes `isDead` says are
   * dead (adopted first). Another node's charge is applied without its reservation, which the
   * sweep of that node's holds gives back. A charge the database still refuses stays. Concurrent
   * callers share one replay.
   */
  replaySpool(isDead: (nodeId: string) => boolean): Promise<void> {
    this.replaying ??= this.replayOnce(isDead).finally(() => {
      this.replaying = undefined
    })
    return this.replaying
  }

  private async replayOnce(isDead: (nodeId: string) => boolean): Promise<void> {
    if (!this.spool) return
    for (const charge of this.spool.adoptAndList(isDead)) {
      const [tokenId, userId, channelId, reserved, actual, counted] = charge.settlement
      const ownReservation = charge.origin === this.nodeId ? reserved : 0
      if (ownReservation === 0 && actual === 0) {
        this.spool.applied(charge) // a refund of a dead node: its sweep gives the quota back
        continue
      }
      try {
        await this.write([tokenId, userId, channelId, ownReservation, actual, counted], charge.log)
      } catch {
        continue // still refused: kept for the next replay
      }
      this.spool.applied(charge)
      this.options.onChargeApplied?.(charge)
    }
  }

  /**
   * SQLite: commits what is queued (see flushSettlements), waiting for the write lock if need be;
   * throws if the commit failed. Should the query builder hold the connection in a transaction,
   * the commit follows right after that one.
   * PostgreSQL and MySQL: waits up to `waitMs` for the settlements and refunds still being tried,
   * and returns those that never reached the database (see ServerLedgerWrites.close).
   */
  async close(waitMs = 0): Promise<LostSettlement[]> {
    this.batches?.close()
    return (await this.serverWrites?.close(waitMs)) ?? []
  }

  /** Gives a failed request's reservation back; the request is not counted. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.settled) return
    reservation.settled = true
    const amount = reservation.amount
    if (amount <= 0) return
    await this.store([reservation.tokenId, reservation.userId, 0, amount, 0, 0], undefined)
  }
}
