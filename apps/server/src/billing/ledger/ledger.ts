import type SqliteDatabase from 'better-sqlite3'
import { type Kysely, sql } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'
import {
  prepareSqliteLedger,
  type Settlement,
  type SqliteLedgerStatements,
} from './sqlite-ledger-statements.ts'

// On SQLite, settlements are committed together every few milliseconds: one commit for many
// requests. Reservations stay immediate, so balances are never overspent through them.
const SETTLE_BATCH_DELAY_MS = 10
const SETTLE_BATCH_SIZE = 256

/** Quota held for one request between its reservation and its settlement. */
export interface Reservation {
  tokenId: number
  userId: number
  amount: number
  settled: boolean
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; reason: 'token' | 'user' }

/**
 * The billing ledger: reserve before the upstream call, settle with the real cost afterwards,
 * refund on failure. The reservation is a conditional UPDATE inside one transaction, so under any
 * concurrency, on one process or many sharing the database, a token or user can never go below
 * zero through reservations; settlement then moves the balance by (actual - reserved).
 */
export class Ledger {
  private readonly prepared?: SqliteLedgerStatements
  private pendingSettlements: Settlement[] = []
  private flushTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly db: Kysely<MainSchema>,
    private readonly sqlite?: SqliteDatabase.Database,
  ) {
    if (sqlite) this.prepared = prepareSqliteLedger(sqlite)
  }

  /**
   * The prepared SQLite statements, unless the query builder holds the single connection in an
   * open transaction (then our writes would join it): wait for it through the builder instead.
   */
  private fast(): SqliteLedgerStatements | undefined {
    return this.prepared && !this.sqlite?.inTransaction ? this.prepared : undefined
  }

  async reserve(tokenId: number, userId: number, amount: number): Promise<ReserveResult> {
    const reservation: Reservation = { tokenId, userId, amount, settled: false }
    if (amount <= 0) return { ok: true, reservation }
    const now = Math.floor(Date.now() / 1000)
    const fast = this.fast()
    if (fast) {
      const result = fast.reserve(tokenId, userId, amount, now)
      return result === 'ok' ? { ok: true, reservation } : { ok: false, reason: result }
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        const token = await trx
          .updateTable('tokens')
          .set({
            remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota - ${amount} end`,
            used_quota: sql`used_quota + ${amount}`,
            accessed_time: now,
          })
          .where('id', '=', tokenId)
          .where((eb) => eb.or([eb('unlimited_quota', '=', true), eb('remain_quota', '>=', amount)]))
          .executeTakeFirst()
        if (Number(token.numUpdatedRows) !== 1) throw new InsufficientQuota('token')
        const user = await trx
          .updateTable('users')
          .set({ quota: sql`quota - ${amount}` })
          .where('id', '=', userId)
          .where('quota', '>=', amount)
          .executeTakeFirst()
        if (Number(user.numUpdatedRows) !== 1) throw new InsufficientQuota('user')
      })
    } catch (error) {
      if (error instanceof InsufficientQuota) return { ok: false, reason: error.reason }
      throw error
    }
    return { ok: true, reservation }
  }

  /**
   * Charges `actual` for the request: the difference to the reservation goes back to (or is taken
   * from) the token and user, and the usage counters move. Runs at most once per reservation.
   */
  async settle(reservation: Reservation, actual: number, channelId: number): Promise<void> {
    if (reservation.settled) return
    reservation.settled = true
    if (this.prepared) {
      this.pendingSettlements.push([
        reservation.tokenId,
        reservation.userId,
        channelId,
        reservation.amount,
        actual,
      ])
      if (this.pendingSettlements.length >= SETTLE_BATCH_SIZE) this.flushSettlements()
      else this.flushTimer ??= setTimeout(() => this.flushSettlements(), SETTLE_BATCH_DELAY_MS)
      return
    }
    const delta = actual - reservation.amount
    await this.db.transaction().execute(async (trx) => {
      if (delta !== 0) {
        await trx
          .updateTable('tokens')
          .set({
            remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota - ${delta} end`,
            used_quota: sql`used_quota + ${delta}`,
          })
          .where('id', '=', reservation.tokenId)
          .execute()
      }
      await trx
        .updateTable('users')
        .set({
          quota: sql`quota - ${delta}`,
          used_quota: sql`used_quota + ${actual}`,
          request_count: sql`request_count + 1`,
        })
        .where('id', '=', reservation.userId)
        .execute()
      if (actual !== 0 && channelId > 0) {
        await trx
          .updateTable('channels')
          .set({ used_quota: sql`used_quota + ${actual}` })
          .where('id', '=', channelId)
          .execute()
      }
    })
  }

  /** Commits the queued SQLite settlements (also on shutdown, through close()). */
  flushSettlements(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = undefined
    if (this.pendingSettlements.length === 0 || !this.prepared) return
    if (this.sqlite?.inTransaction) {
      // The builder holds the connection in a transaction: try again right after it.
      this.flushTimer = setTimeout(() => this.flushSettlements(), SETTLE_BATCH_DELAY_MS)
      return
    }
    const batch = this.pendingSettlements
    this.pendingSettlements = []
    this.prepared.settleMany(batch)
  }

  close(): void {
    this.flushSettlements()
    if (this.pendingSettlements.length > 0 && this.prepared) {
      this.prepared.settleMany(this.pendingSettlements)
      this.pendingSettlements = []
    }
  }

  /** Gives a failed request's reservation back; the request is not counted. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.settled) return
    reservation.settled = true
    const amount = reservation.amount
    if (amount <= 0) return
    const fast = this.fast()
    if (fast) return fast.refund(reservation.tokenId, reservation.userId, amount)
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('tokens')
        .set({
          remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota + ${amount} end`,
          used_quota: sql`used_quota - ${amount}`,
        })
        .where('id', '=', reservation.tokenId)
        .execute()
      await trx
        .updateTable('users')
        .set({ quota: sql`quota + ${amount}` })
        .where('id', '=', reservation.userId)
        .execute()
    })
  }
}

class InsufficientQuota extends Error {
  constructor(readonly reason: 'token' | 'user') {
    super(`insufficient ${reason} quota`)
  }
}
