import { type Kysely, sql, type Transaction, type UpdateObject } from 'kysely'
import { insertLogsWithTotals } from '../../db/repositories/log-totals.ts'
import type { LogSchema, MainSchema } from '../../db/schema.ts'
import type { Guarded, PairSettlement } from './server-ledger-types.ts'
import type { ReservationOutcome } from './sqlite-ledger-statements.ts'

/**
 * The ledger's writes on MySQL, each one transaction. Rows are locked in one order everywhere
 * (hold, token, user, channel; sweeps give back in that order too, quota-holds.ts), so they never
 * deadlock each other. Each is guarded by the id of the write it carries, recorded on this node's
 * hold row for the pair (reserve_write, settle_write; see ServerLedgerWrites): the row is locked
 * first, and the transaction changes nothing unless the row records a lower id; it records
 * `writeId` once applied.
 */

/**
 * Takes `amount` from the token (unless unlimited) and the user if both have it, and adds it to this
 * node's hold. A refused reservation is rolled back, the record of write ids included, so a retry
 * decides it again.
 */
export function reserveOnMysql(
  db: Kysely<MainSchema>,
  nodeId: string,
  tokenId: number,
  userId: number,
  amount: number,
  now: number,
  writeId: number,
): Promise<Guarded<ReservationOutcome>> {
  const hold = { nodeId, tokenId, userId }
  return db
    .transaction()
    .execute(async (trx) => {
      const locked = await lockHold(trx, hold, 'reserve_write', writeId)
      if ('guard' in locked) return locked
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
      await updateHold(trx, hold, { amount: sql`amount + ${amount}`, reserve_write: writeId })
      return { guard: 'ok', value: 'ok' } as const
    })
    .catch((error: unknown) => {
      if (error instanceof InsufficientQuota) return { guard: 'ok', value: error.reason } as const
      throw error
    })
}

/**
 * Replaces the pair's reservations by what their requests cost, and stores their consume logs in
 * the same transaction (see settleOnPostgres). A sweep that
 * took this node for dead (paused past the timeout) gave back part of what they reserved already:
 * that part is taken again, so each request still costs what it cost.
 */
export function settleOnMysql(
  db: Kysely<MainSchema>,
  nodeId: string,
  pair: PairSettlement,
  writeId: number,
): Promise<Guarded<true>> {
  const { tokenId, userId, reserved, actual, requests } = pair
  const hold = { nodeId, tokenId, userId }
  return db.transaction().execute(async (trx) => {
    const locked = await lockHold(trx, hold, 'settle_write', writeId)
    if ('guard' in locked) return locked
    const released = Math.min(reserved, Math.max(0, locked.amount))
    // What the requests cost beyond what is released of their reservations.
    const charge = actual - released
    if (charge !== 0) {
      await trx
        .updateTable('tokens')
        .set({
          remain_quota: sql`case when unlimited_quota = ${true} then remain_quota else remain_quota - ${charge} end`,
          used_quota: sql`used_quota + ${charge}`,
        })
        .where('id', '=', tokenId)
        .execute()
    }
    await trx
      .updateTable('users')
      .set({
        quota: sql`quota - ${charge}`,
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
    await updateHold(trx, hold, { amount: sql`amount - ${released}`, settle_write: writeId })
    // The requests' logs commit with their charges (their daily totals' row locked last).
    await insertLogsWithTotals(trx as unknown as Kysely<LogSchema>, pair.logs)
    return { guard: 'ok', value: true } as const
  })
}

/** This node's hold row for a token and user. */
interface HoldKey {
  nodeId: string
  tokenId: number
  userId: number
}

type WriteColumn = 'reserve_write' | 'settle_write'

/**
 * Locks the hold row; its amount when the write `writeId` may apply (the row records a lower id in
 * `column`), else why not.
 */
async function lockHold(
  trx: Transaction<MainSchema>,
  { nodeId, tokenId, userId }: HoldKey,
  column: WriteColumn,
  writeId: number,
): Promise<{ amount: number } | Guarded<never>> {
  const row = await trx
    .selectFrom('quota_holds')
    .select(['amount', column])
    .where('node_id', '=', nodeId)
    .where('token_id', '=', tokenId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst()
  if (!row) return { guard: 'missing' }
  const recorded = Number((row as Record<WriteColumn, number>)[column])
  return recorded >= writeId ? { guard: 'landed' } : { amount: Number(row.amount) }
}

function updateHold(
  trx: Transaction<MainSchema>,
  { nodeId, tokenId, userId }: HoldKey,
  changes: UpdateObject<MainSchema, 'quota_holds'>,
) {
  return trx
    .updateTable('quota_holds')
    .set(changes)
    .where('node_id', '=', nodeId)
    .where('token_id', '=', tokenId)
    .where('user_id', '=', userId)
    .execute()
}

class InsufficientQuota extends Error {
  constructor(readonly reason: 'token' | 'user') {
    super(`insufficient ${reason} quota`)
  }
}
