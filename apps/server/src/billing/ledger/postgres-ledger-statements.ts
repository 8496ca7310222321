import { type Kysely, sql } from 'kysely'
import { insertLogsWithTotals } from '../../db/repositories/log-totals.ts'
import type { LogSchema, MainSchema } from '../../db/schema.ts'
import type { Guarded, PairSettlement } from './server-ledger-types.ts'
import type { ReservationOutcome } from './sqlite-ledger-statements.ts'

/**
 * The ledger's writes on PostgreSQL, each one statement (so one round trip, committed on its own).
 * As a transaction of several statements, every request held its token's and user's row locks
 * across four to six round trips through the event loop, and concurrent requests of one token
 * queued behind them: about 220 requests/s at 100 connections, where SQLite's batches did 9,500.
 * Rows are locked in one order everywhere (hold, user, token, channel; sweeps give back in that
 * order too, quota-holds.ts), so statements never deadlock each other; PostgreSQL runs a statement's WITH parts in the order their references
 * force, which is how that order is set.
 *
 * Each statement is guarded by the id of the write it carries, recorded on this node's hold row
 * for the pair (reserve_write, settle_write; see ServerLedgerWrites): the hold row is locked first
 * and the statement changes nothing unless the row records a lower id, and records `writeId` once
 * applied. A lock wait re-reads the row, so of two tries of one write (one whose connection
 * dropped, still running, and its retry) only the first to commit applies, and a lost try that
 * reaches the database late, after later writes, applies nothing either.
 */

/**
 * A statement that did not pass its guard: the row records the write (an earlier try landed; no
 * later write of its kind and pair starts before it is done), or the row is gone. (A row a sweep deleted while the statement waited for it counts as landed: that
 * needs this node silent for minutes in the middle of one write.)
 */
function guardOutcome(row: { hold_exists: boolean } | undefined): Guarded<never> {
  return row?.hold_exists ? { guard: 'landed' } : { guard: 'missing' }
}

/**
 * Takes `amount` from the token (unless unlimited) and the user if both have it, and adds it to this
 * node's hold. The user's row is locked and its quota judged first, then the token's; when neither
 * can pay, the token is reported. A refused reservation records nothing, so a retry decides again.
 */
export async function reserveOnPostgres(
  db: Kysely<MainSchema>,
  nodeId: string,
  tokenId: number,
  userId: number,
  amount: number,
  now: number,
  writeId: number,
): Promise<Guarded<ReservationOutcome>> {
  const { rows } = await sql<{
    guarded: string
    hold_exists: boolean
    token_enough: boolean | null
    payer: string
    reserved: string
  }>`
    with guard as (
      select 1 from quota_holds
      where node_id = ${nodeId} and token_id = ${tokenId} and user_id = ${userId} and reserve_write < ${writeId}
      for update
    ), payer as (
      select id from users where id = ${userId} and quota >= ${amount} and exists (select 1 from guard) for update
    ), token as (
      update tokens set
        remain_quota = case when unlimited_quota then remain_quota else remain_quota - ${amount} end,
        used_quota = used_quota + ${amount},
        accessed_time = greatest(accessed_time, ${now})
      where id = ${tokenId} and (unlimited_quota or remain_quota >= ${amount}) and exists (select 1 from payer)
      returning id
    ), paid as (
      update users set quota = quota - ${amount} where id = ${userId} and exists (select 1 from token)
      returning id
    ), held as (
      update quota_holds set amount = amount + ${amount}, reserve_write = ${writeId}
      where node_id = ${nodeId} and token_id = ${tokenId} and user_id = ${userId} and exists (select 1 from paid)
      returning 1
    )
    select
      (select count(*) from guard) as guarded,
      exists (select 1 from quota_holds
        where node_id = ${nodeId} and token_id = ${tokenId} and user_id = ${userId}) as hold_exists,
      (select unlimited_quota or remain_quota >= ${amount} from tokens where id = ${tokenId}) as token_enough,
      (select count(*) from payer) as payer,
      (select count(*) from held) as reserved`.execute(db)
  const row = rows[0]
  if (Number(row?.guarded) !== 1) return guardOutcome(row)
  if (Number(row?.reserved) === 1) return { guard: 'ok', value: 'ok' }
  // The user had it (its row is locked and judged on its latest version): the token did not.
  if (Number(row?.payer) === 1) return { guard: 'ok', value: 'token' }
  return { guard: 'ok', value: row?.token_enough === true ? 'user' : 'token' }
}

/**
 * Replaces reservations of `reserved` in all by what their requests cost (`actual`), counting
 * `requests` of them (a refund is a settlement that cost 0 and is not counted), and adds what each
 * channel earned, and stores the requests' consume logs in the same transaction. What this node's hold still holds of the reservations is released; a part a sweep
 * already gave back (this node taken for dead) is taken again, so the requests cost `actual` in all
 * and nothing is given back twice. A token deleted while its requests were in flight still has
 * their hold released, and its user is charged what they cost, not their reservations too.
 */
export async function settleOnPostgres(
  db: Kysely<MainSchema>,
  nodeId: string,
  settlement: PairSettlement,
  writeId: number,
): Promise<Guarded<true>> {
  if (settlement.logs.length === 0) return settleStatement(db, nodeId, settlement, writeId)
  // The requests' logs commit with their charges, after it (their daily totals' row is locked
  // last, as by every writer of logs); a write that does not pass its guard stores none.
  return db.transaction().execute(async (trx) => {
    const outcome = await settleStatement(trx, nodeId, settlement, writeId)
    if (outcome.guard === 'ok') {
      await insertLogsWithTotals(trx as unknown as Kysely<LogSchema>, settlement.logs)
    }
    return outcome
  })
}

async function settleStatement(
  db: Kysely<MainSchema>,
  nodeId: string,
  settlement: PairSettlement,
  writeId: number,
): Promise<Guarded<true>> {
  const { tokenId, userId, reserved, actual, requests } = settlement
  // The channels' earnings as arrays the statement unnests.
  const channels = [...settlement.channels].sort(([a], [b]) => a - b)
  const channelIds = channels.map(([id]) => id)
  const earned = channels.map(([, amount]) => amount)
  const { rows } = await sql<{ guarded: string; hold_exists: boolean }>`
    with hold as (
      select amount from quota_holds
      where node_id = ${nodeId} and token_id = ${tokenId} and user_id = ${userId} and settle_write < ${writeId}
      for update
    ), payer as (
      select id from users where id = ${userId} and exists (select 1 from hold) for update
    ), token_row as (
      select id from tokens where id = ${tokenId} and exists (select 1 from payer) for update
    ), released as (
      select least(${reserved}::bigint, greatest(coalesce((select amount from hold), 0), 0)) as amount
    ), token as (
      update tokens set
        remain_quota = case when unlimited_quota then remain_quota
          else remain_quota - (${actual} - (select amount from released)) end,
        used_quota = used_quota + (${actual} - (select amount from released))
      where id = ${tokenId} and exists (select 1 from token_row)
      returning id
    ), charged as (
      update users set
        quota = quota - (${actual} - (select amount from released)),
        used_quota = used_quota + ${actual},
        request_count = request_count + ${requests}
      where id = ${userId} and exists (select 1 from payer) and (select count(*) from token_row) >= 0
      returning id
    ), channel_rows as (
      -- Locked in id order, after the pair's rows (the reference to token_row sets the order): an
      -- update joined to the list locked them in the table's physical order, and two pairs'
      -- settlements sharing channels deadlocked.
      select id from channels
      where id = any(${channelIds}::bigint[]) and exists (select 1 from payer)
        and (select count(*) from token_row) >= 0
      order by id
      for update
    ), channel as (
      update channels set used_quota = channels.used_quota + earned.amount
      from unnest(${channelIds}::bigint[], ${earned}::bigint[]) as earned(id, amount)
      where channels.id = earned.id and channels.id in (select id from channel_rows)
      returning channels.id
    ), released_hold as (
      update quota_holds set amount = amount - (select amount from released), settle_write = ${writeId}
      where node_id = ${nodeId} and token_id = ${tokenId} and user_id = ${userId}
        and exists (select 1 from hold)
      returning 1
    )
    select
      (select count(*) from released_hold) as guarded,
      exists (select 1 from quota_holds
        where node_id = ${nodeId} and token_id = ${tokenId} and user_id = ${userId}) as hold_exists`.execute(
    db,
  )
  const row = rows[0]
  return Number(row?.guarded) === 1 ? { guard: 'ok', value: true } : guardOutcome(row)
}
