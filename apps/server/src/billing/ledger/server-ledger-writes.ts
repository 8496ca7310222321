import { type Kysely, sql } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'
import { PairBatches } from './pair-batches.ts'
import { reserveOnPostgres, settleOnPostgres } from './postgres-ledger-statements.ts'
import { addHold, createHoldRow, giveBack, releaseHold } from './quota-holds.ts'
import type { ReservationOutcome, ReservationRequest, Settlement } from './sqlite-ledger-statements.ts'
import { RESERVATION_RETRY_DELAYS_MS, SETTLEMENT_RETRY_DELAYS_MS, withRetries } from './write-retries.ts'

// Hold rows known to exist (MySQL), remembered up to this many token and user pairs (then
// forgotten and created again on their next use: creating an existing row changes nothing).
const HOLD_ROWS_REMEMBERED = 100_000

interface QueuedReservation extends ReservationRequest {
  resolve(outcome: ReservationOutcome): void
  reject(error: unknown): void
}

interface QueuedSettlement {
  settlement: Settlement
  resolve(): void
  reject(error: unknown): void
}

/** A token and user pair's settlements summed: what one write applies for all of them. */
export interface PairSettlement {
  tokenId: number
  userId: number
  reserved: number
  actual: number
  /** Requests counted (refunds are not). */
  requests: number
  /** What each channel earned, by channel id (channels with nothing earned left out). */
  channels: Map<number, number>
}

/**
 * The ledger's writes on PostgreSQL and MySQL, batched per token and user pair (pair-batches.ts):
 * the reservations of a pair queued together are taken as one, when the pair can pay for all of
 * them; its settlements and refunds queued together are applied as one, summed. A request's promise
 * settles when the write that carried it has committed.
 */
export class ServerLedgerWrites {
  private readonly reservations = new PairBatches<QueuedReservation>((items) => this.writeReservations(items))
  private readonly settlements = new PairBatches<QueuedSettlement>((items) => this.writeSettlements(items))
  /** Token and user pairs whose hold row this node has created (MySQL). */
  private readonly holdRows = new Set<string>()

  constructor(
    private readonly db: Kysely<MainSchema>,
    private readonly nodeId: string,
    private readonly postgres: boolean,
  ) {}

  reserve(tokenId: number, userId: number, amount: number, now: number): Promise<ReservationOutcome> {
    return new Promise((resolve, reject) => {
      this.reservations.add(pairKey(tokenId, userId), { tokenId, userId, amount, now, resolve, reject })
    })
  }

  /** A settlement, or a refund (cost 0, not counted, no channel). */
  settle(settlement: Settlement): Promise<void> {
    return new Promise((resolve, reject) => {
      this.settlements.add(pairKey(settlement[0], settlement[1]), { settlement, resolve, reject })
    })
  }

  /**
   * The pair pays for the whole batch in one write when it can; when it cannot, each reservation is
   * decided alone in arrival order, so that those it can pay for are still granted (this happens
   * only as a balance runs out).
   */
  private async writeReservations(items: QueuedReservation[]): Promise<void> {
    const { tokenId, userId } = items[0]!
    try {
      const total = items.reduce((sum, item) => sum + item.amount, 0)
      const now = items.reduce((latest, item) => Math.max(latest, item.now), 0)
      const outcome = await this.reserveOnce(tokenId, userId, total, now)
      if (outcome === 'ok' || items.length === 1) {
        for (const item of items) item.resolve(outcome)
        return
      }
      for (const item of items) item.resolve(await this.reserveOnce(tokenId, userId, item.amount, item.now))
    } catch (error) {
      // Items resolved already keep their outcome (a promise settles once).
      for (const item of items) item.reject(error)
    }
  }

  private async writeSettlements(items: QueuedSettlement[]): Promise<void> {
    const [tokenId, userId] = items[0]!.settlement
    const pair: PairSettlement = { tokenId, userId, reserved: 0, actual: 0, requests: 0, channels: new Map() }
    for (const {
      settlement: [, , channelId, reserved, actual, counted],
    } of items) {
      pair.reserved += reserved
      pair.actual += actual
      pair.requests += counted
      if (actual !== 0 && channelId > 0)
        pair.channels.set(channelId, (pair.channels.get(channelId) ?? 0) + actual)
    }
    try {
      await withRetries(this.db, SETTLEMENT_RETRY_DELAYS_MS, (connection) =>
        this.postgres
          ? settleOnPostgres(connection, this.nodeId, pair)
          : this.settleOnMysql(connection, pair),
      )
      for (const item of items) item.resolve()
    } catch (error) {
      for (const item of items) item.reject(error)
    }
  }

  private async reserveOnce(
    tokenId: number,
    userId: number,
    amount: number,
    now: number,
  ): Promise<ReservationOutcome> {
    if (this.postgres) {
      return withRetries(this.db, RESERVATION_RETRY_DELAYS_MS, (connection) =>
        reserveOnPostgres(connection, this.nodeId, tokenId, userId, amount, now),
      )
    }
    await this.ensureHoldRow(tokenId, userId)
    try {
      await withRetries(this.db, RESERVATION_RETRY_DELAYS_MS, (connection) =>
        this.reserveOnMysql(connection, tokenId, userId, amount, now),
      )
    } catch (error) {
      if (error instanceof InsufficientQuota) return error.reason
      throw error
    }
    return 'ok'
  }

  /** This node's hold row for the pair, created once (see createHoldRow). */
  private async ensureHoldRow(tokenId: number, userId: number): Promise<void> {
    const pair = pairKey(tokenId, userId)
    if (this.holdRows.has(pair)) return
    // Creating an existing row changes nothing, so this one is safe to try again whatever failed.
    await withRetries(this.db, RESERVATION_RETRY_DELAYS_MS, (connection) =>
      createHoldRow(connection, this.nodeId, tokenId, userId),
    )
    if (this.holdRows.size >= HOLD_ROWS_REMEMBERED) this.holdRows.clear()
    this.holdRows.add(pair)
  }

  /** MySQL: the reservation's conditional updates and its hold, in one transaction. */
  private reserveOnMysql(
    db: Kysely<MainSchema>,
    tokenId: number,
    userId: number,
    amount: number,
    now: number,
  ): Promise<void> {
    return db.transaction().execute(async (trx) => {
      const token = await trx
        .updateTable('tokens')
        .set({
          remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota - ${amount} end`,
          used_quota: sql`used_quota + ${amount}`,
          accessed_time: sql`greatest(coalesce(accessed_time, 0), ${now})`,
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
      await addHold(trx, this.nodeId, tokenId, userId, amount)
    })
  }

  /**
   * MySQL: the pair's settlements in one transaction. A sweep that took this node for dead (paused
   * past the timeout) gave back part of what they reserved already: that part is taken again, so
   * each request still costs what it cost.
   */
  private settleOnMysql(db: Kysely<MainSchema>, pair: PairSettlement): Promise<void> {
    const { tokenId, userId, reserved, actual, requests } = pair
    const delta = actual - reserved
    return db.transaction().execute(async (trx) => {
      if (delta !== 0) {
        await trx
          .updateTable('tokens')
          .set({
            remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota - ${delta} end`,
            used_quota: sql`used_quota + ${delta}`,
          })
          .where('id', '=', tokenId)
          .execute()
      }
      await trx
        .updateTable('users')
        .set({
          quota: sql`quota - ${delta}`,
          used_quota: sql`used_quota + ${actual}`,
          request_count: sql`request_count + ${requests}`,
        })
        .where('id', '=', userId)
        .execute()
      // In id order, so two transactions never wait for each other's channels.
      for (const [channelId, earned] of [...pair.channels].sort(([a], [b]) => a - b)) {
        await trx
          .updateTable('channels')
          .set({ used_quota: sql`used_quota + ${earned}` })
          .where('id', '=', channelId)
          .execute()
      }
      const released = await releaseHold(trx, this.nodeId, tokenId, userId, reserved)
      if (released < reserved) await giveBack(trx, tokenId, userId, released - reserved)
    })
  }
}

const pairKey = (tokenId: number, userId: number) => `${tokenId}:${userId}`

class InsufficientQuota extends Error {
  constructor(readonly reason: 'token' | 'user') {
    super(`insufficient ${reason} quota`)
  }
}
