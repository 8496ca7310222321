import { type Kysely, sql } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'

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
  constructor(private readonly db: Kysely<MainSchema>) {}

  async reserve(tokenId: number, userId: number, amount: number): Promise<ReserveResult> {
    const reservation: Reservation = { tokenId, userId, amount, settled: false }
    if (amount <= 0) return { ok: true, reservation }
    const now = Math.floor(Date.now() / 1000)
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
        await trx.updateTable('channels').set({ used_quota: sql`used_quota + ${actual}` }).where('id', '=', channelId).execute()
      }
    })
  }

  /** Gives a failed request's reservation back; the request is not counted. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.settled) return
    reservation.settled = true
    const amount = reservation.amount
    if (amount <= 0) return
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('tokens')
        .set({
          remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota + ${amount} end`,
          used_quota: sql`used_quota - ${amount}`,
        })
        .where('id', '=', reservation.tokenId)
        .execute()
      await trx.updateTable('users').set({ quota: sql`quota + ${amount}` }).where('id', '=', reservation.userId).execute()
    })
  }
}

class InsufficientQuota extends Error {
  constructor(readonly reason: 'token' | 'user') {
    super(`insufficient ${reason} quota`)
  }
}
