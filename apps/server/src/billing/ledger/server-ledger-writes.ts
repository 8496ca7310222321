import { type Kysely, sql, type Transaction, type UpdateObject } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'
import { PairBatches } from './pair-batches.ts'
import { reserveOnPostgres, settleOnPostgres } from './postgres-ledger-statements.ts'
import { createHoldRow } from './quota-holds.ts'
import type { ReservationOutcome, ReservationRequest, Settlement } from './sqlite-ledger-statements.ts'
import { RESERVATION_RETRY_DELAYS_MS, SETTLEMENT_RETRY_DELAYS_MS, withRetries } from './write-retries.ts'

// Pairs whose hold row and sequences this node knows, remembered up to this many (then forgotten,
// and read again on their next use).
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
 * A write guarded by its pair's sequence: applied (`ok`; `unchanged` when it decided to change
 * nothing, a refused reservation, and so left the sequence too), or not applied because the hold
 * row's sequence was not the one before the write's (`stale`: `current` is the row's), or because
 * this node's hold row for the pair is gone (`missing`: a sweep took this node for dead and
 * removed it).
 */
export type Guarded<T> =
  | { guard: 'ok'; value: T; unchanged?: true }
  | { guard: 'stale'; current: number }
  | { guard: 'missing' }

type SequenceKind = 'reserve_seq' | 'settle_seq'

/** The last write of each kind this node applied for a pair, as its hold row records it. */
interface PairSequences {
  reserve_seq: number
  settle_seq: number
}

/**
 * The ledger's writes on PostgreSQL and MySQL, batched per token and user pair (pair-batches.ts):
 * the reservations of a pair queued together are taken as one, when the pair can pay for all of
 * them; its settlements and refunds queued together are applied as one, summed. A request's promise
 * settles when the write that carried it has committed.
 *
 * Every write is applied once, even when its connection drops after the database received it (the
 * commit may or may not have landed). Each write of a pair carries the next number of a sequence
 * kept on this node's hold row for the pair, one per kind (reservations, settlements: a pair has
 * at most one write of each kind in flight), and applies only if the row's number is the one
 * before, which it moves on. So a write whose outcome is unknown is simply tried again: if the
 * lost try had landed, the row shows its number and the retry knows the write is done.
 */
export class ServerLedgerWrites {
  private readonly reservations = new PairBatches<QueuedReservation>((items) => this.writeReservations(items))
  private readonly settlements = new PairBatches<QueuedSettlement>((items) => this.writeSettlements(items))
  /** Pairs whose hold row exists, with its sequences as this node last wrote them. */
  private readonly pairs = new Map<string, PairSequences>()

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
      await this.guardedWrite(tokenId, userId, 'settle_seq', SETTLEMENT_RETRY_DELAYS_MS, true, (db, seq) =>
        this.postgres ? settleOnPostgres(db, this.nodeId, pair, seq) : this.settleOnMysql(db, pair, seq),
      )
      for (const item of items) item.resolve()
    } catch (error) {
      for (const item of items) item.reject(error)
    }
  }

  /** A refused reservation moves no sequence, so a retry after a lost one decides it again. */
  private reserveOnce(
    tokenId: number,
    userId: number,
    amount: number,
    now: number,
  ): Promise<ReservationOutcome> {
    return this.guardedWrite(tokenId, userId, 'reserve_seq', RESERVATION_RETRY_DELAYS_MS, 'ok', (db, seq) =>
      this.postgres
        ? reserveOnPostgres(db, this.nodeId, tokenId, userId, amount, now, seq)
        : this.reserveOnMysql(db, tokenId, userId, amount, now, seq),
    )
  }

  /**
   * Runs `write` with the pair's next sequence number of `kind` (see the class comment), and again
   * on any failure (write-retries.ts); `landed` is the write's value when a retry finds that a
   * failed try had landed after all.
   */
  private async guardedWrite<T>(
    tokenId: number,
    userId: number,
    kind: SequenceKind,
    delays: readonly number[],
    landed: T,
    write: (db: Kysely<MainSchema>, seq: number) => Promise<Guarded<T>>,
  ): Promise<T> {
    const sequences = await this.sequences(tokenId, userId)
    // Set once a try failed after it was handed a connection: it may have committed (its answer
    // lost with its connection), whatever its error says (a transaction whose commit's answer was
    // lost fails with its rollback's error, "closed, nothing sent").
    let mayHaveLanded = false
    return withRetries(this.db, delays, async (connection) => {
      for (;;) {
        const seq = sequences[kind] + 1
        let result: Guarded<T>
        try {
          result = await write(connection, seq)
        } catch (error) {
          mayHaveLanded = true
          throw error
        }
        if (result.guard === 'ok') {
          if (!result.unchanged) sequences[kind] = seq
          return result.value
        }
        if (result.guard === 'stale') {
          // The row shows this very write's number: a failed try landed (until this write is done,
          // nothing else moves the pair's sequence of its kind on this node).
          if (mayHaveLanded && result.current === seq) {
            sequences[kind] = seq
            return landed
          }
          // This node's copy is behind the row (it was read while a write of this kind was in
          // flight, or the row was created again): go on from the row's.
          sequences[kind] = result.current
          continue
        }
        // A sweep took this node for dead and removed the row: create it again (its sequences
        // start at 0; the other kind's next write finds its own copy stale and goes on from 0).
        // Should a failed try of this write have landed before the sweep, it is applied again:
        // that needs this node to be silent for minutes in the middle of one write.
        await createHoldRow(connection, this.nodeId, tokenId, userId)
        sequences[kind] = 0
      }
    })
  }

  /**
   * The pair's sequences as this node last wrote them, read from its hold row (created if missing)
   * on the pair's first write or once forgotten; a copy read while a write was in flight may be
   * behind, which that kind's next write finds out (see guardedWrite).
   */
  private async sequences(tokenId: number, userId: number): Promise<PairSequences> {
    const key = pairKey(tokenId, userId)
    const known = this.pairs.get(key)
    if (known) return known
    const row = await withRetries(this.db, RESERVATION_RETRY_DELAYS_MS, async (db) => {
      // Creating an existing row changes nothing, so this is safe to try again whatever failed.
      await createHoldRow(db, this.nodeId, tokenId, userId)
      return db
        .selectFrom('quota_holds')
        .select(['reserve_seq', 'settle_seq'])
        .where('node_id', '=', this.nodeId)
        .where('token_id', '=', tokenId)
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    })
    const sequences = { reserve_seq: Number(row.reserve_seq), settle_seq: Number(row.settle_seq) }
    if (this.pairs.size >= HOLD_ROWS_REMEMBERED) this.pairs.clear()
    this.pairs.set(key, sequences)
    return sequences
  }

  /**
   * MySQL: the reservation's conditional updates and its hold, in one transaction guarded by the
   * hold row, which is locked first (hold, token, user: the order of every ledger write).
   */
  private reserveOnMysql(
    db: Kysely<MainSchema>,
    tokenId: number,
    userId: number,
    amount: number,
    now: number,
    seq: number,
  ): Promise<Guarded<ReservationOutcome>> {
    return db
      .transaction()
      .execute(async (trx) => {
        const guard = await lockHold(trx, this.nodeId, tokenId, userId, 'reserve_seq', seq)
        if (guard) return guard
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
        await updateHold(trx, this.nodeId, tokenId, userId, {
          amount: sql`amount + ${amount}`,
          reserve_seq: seq,
        })
        return { guard: 'ok', value: 'ok' } as const
      })
      .catch((error: unknown) => {
        // Rolled back: a refusal changes nothing, the sequence included.
        if (error instanceof InsufficientQuota)
          return { guard: 'ok', value: error.reason, unchanged: true } as const
        throw error
      })
  }

  /**
   * MySQL: the pair's settlements in one transaction guarded by the hold row. A sweep that took
   * this node for dead (paused past the timeout) gave back part of what they reserved already: that
   * part is taken again, so each request still costs what it cost.
   */
  private settleOnMysql(db: Kysely<MainSchema>, pair: PairSettlement, seq: number): Promise<Guarded<true>> {
    const { tokenId, userId, reserved, actual, requests } = pair
    return db.transaction().execute(async (trx) => {
      const held = await trx
        .selectFrom('quota_holds')
        .select(['amount', 'settle_seq'])
        .where('node_id', '=', this.nodeId)
        .where('token_id', '=', tokenId)
        .where('user_id', '=', userId)
        .forUpdate()
        .executeTakeFirst()
      if (!held) return { guard: 'missing' } as const
      if (Number(held.settle_seq) !== seq - 1)
        return { guard: 'stale', current: Number(held.settle_seq) } as const
      const released = Math.min(reserved, Math.max(0, Number(held.amount)))
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
      await updateHold(trx, this.nodeId, tokenId, userId, {
        amount: sql`amount - ${released}`,
        settle_seq: seq,
      })
      return { guard: 'ok', value: true } as const
    })
  }
}

/**
 * MySQL: locks this node's hold row for the pair and checks its `kind` sequence is the one before
 * `seq`; undefined when it is, else why the write must not apply.
 */
async function lockHold(
  trx: Transaction<MainSchema>,
  nodeId: string,
  tokenId: number,
  userId: number,
  kind: SequenceKind,
  seq: number,
): Promise<Guarded<never> | undefined> {
  const row = await trx
    .selectFrom('quota_holds')
    .select(kind)
    .where('node_id', '=', nodeId)
    .where('token_id', '=', tokenId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst()
  if (!row) return { guard: 'missing' }
  const current = Number((row as Record<SequenceKind, number>)[kind])
  return current === seq - 1 ? undefined : { guard: 'stale', current }
}

function updateHold(
  trx: Transaction<MainSchema>,
  nodeId: string,
  tokenId: number,
  userId: number,
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

const pairKey = (tokenId: number, userId: number) => `${tokenId}:${userId}`

class InsufficientQuota extends Error {
  constructor(readonly reason: 'token' | 'user') {
    super(`insufficient ${reason} quota`)
  }
}
