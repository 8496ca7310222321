import type { Kysely } from 'kysely'
import type { MainSchema, NewLog } from '../../db/schema.ts'
import { withinTime } from '../../platform/time-limit.ts'
import { reserveOnMysql, settleOnMysql } from './mysql-ledger-statements.ts'
import { PairBatches } from './pair-batches.ts'
import { reserveOnPostgres, settleOnPostgres } from './postgres-ledger-statements.ts'
import { createHoldRow } from './quota-holds.ts'
import type { Guarded, PairSettlement } from './server-ledger-types.ts'
import type { ReservationOutcome, ReservationRequest, Settlement } from './sqlite-ledger-statements.ts'
import { RESERVATION_RETRIES, type RetryPolicy, SETTLEMENT_RETRIES, withRetries } from './write-retries.ts'

// Pairs whose hold row this node has created, remembered up to this many (then forgotten, and
// created again on their next use: creating an existing row changes nothing).
const HOLD_ROWS_REMEMBERED = 100_000

interface QueuedReservation extends ReservationRequest {
  resolve(outcome: ReservationOutcome): void
  reject(error: unknown): void
}

interface QueuedSettlement {
  settlement: Settlement
  /** The request's consume log, stored in the transaction that applies its charge. */
  log?: NewLog
  resolve(): void
  reject(error: unknown): void
}

export interface ServerLedgerOptions {
  /** How long one try of a write may take, when not the policies' (tests). */
  attemptTimeoutMs?: number
  /** One round of a settlement's tries, when not SETTLEMENT_RETRIES (tests). */
  settlementRetries?: RetryPolicy
  /** A settlement failed a whole round of tries (`round` of them so far); it is tried again. */
  onSettlementDelayed?: (error: unknown, pair: PairSettlement, round: number) => void
}

/** A settlement or refund given up on as the node stopped (a refund costs 0 and counts no request). */
export interface LostSettlement {
  tokenId: number
  userId: number
  channelId: number
  reserved: number
  cost: number
  requests: number
}

/**
 * The ledger's writes on PostgreSQL and MySQL, batched per token and user pair (pair-batches.ts):
 * the reservations of a pair queued together are taken as one, when the pair can pay for all of
 * them; its settlements and refunds queued together are applied as one, summed. A request's promise
 * settles when the write that carried it has committed.
 *
 * Every write is applied once, even when its connection drops after the database received it (the
 * commit may or may not have landed). Each write has an id of its own, higher than every earlier
 * one's, and this node's hold row for the pair records the id of the last write of each kind
 * applied (reservations, settlements: a pair has at most one write of each kind in flight, so
 * nothing else changes that record while a write is tried). A write applies only if the row records
 * a lower id, and records its own. So a write whose outcome is unknown is simply tried again: if the
 * lost try had landed, the row shows its id and the retry knows the write is done; and a lost try
 * that reaches the database late, after later writes of the pair, finds a higher id and applies
 * nothing.
 */
export class ServerLedgerWrites {
  private readonly reservations = new PairBatches<QueuedReservation>((items) => this.writeReservations(items))
  private readonly settlements = new PairBatches<QueuedSettlement>((items) => this.writeSettlements(items))
  /** Pairs whose hold row this node has created. */
  private readonly holdRows = new Set<string>()
  /** The last write id given out (ids grow within this process, and hold rows are per process). */
  private lastWriteId = 0

  private readonly reservationRetries: RetryPolicy
  private readonly settlementRetries: RetryPolicy
  /** Settlements and refunds not applied yet (queued or being tried): what close() waits for. */
  private readonly unsettled = new Map<QueuedSettlement, Promise<void>>()
  /** Reservations given up on whose fence is not written yet, by pair (see fence). */
  private readonly unfenced = new Map<string, ReservationGivenUp>()
  /** Set once close() stops waiting: a settlement failing after that is given up. */
  private givingUp = false

  constructor(
    private readonly db: Kysely<MainSchema>,
    private readonly nodeId: string,
    private readonly postgres: boolean,
    private readonly options: ServerLedgerOptions = {},
  ) {
    const timeout =
      options.attemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: options.attemptTimeoutMs }
    this.reservationRetries = { ...RESERVATION_RETRIES, ...timeout }
    this.settlementRetries = { ...(options.settlementRetries ?? SETTLEMENT_RETRIES), ...timeout }
  }

  /**
   * Waits up to `waitMs` for the settlements and refunds not yet applied (a database out of reach
   * while the node stops), then gives them up and returns them. Their reservations stay held under
   * this node until a sweep takes it for dead and gives them back: those requests go unbilled.
   */
  async close(waitMs: number): Promise<LostSettlement[]> {
    if (this.unsettled.size > 0) await withinTime(Promise.allSettled(this.unsettled.values()), waitMs)
    this.givingUp = true
    const lost = [...this.unsettled.keys()]
    // Their callers are told now, not when the try in progress ends (up to a minute on): a served
    // request's log, saying its charge could not be recorded, must reach the log writer before it
    // closes.
    for (const item of lost) item.reject(new Error('the node stopped before the database took this charge'))
    return lost.map(({ settlement: [tokenId, userId, channelId, reserved, cost, requests] }) => ({
      tokenId,
      userId,
      channelId,
      reserved,
      cost,
      requests,
    }))
  }

  reserve(tokenId: number, userId: number, amount: number, now: number): Promise<ReservationOutcome> {
    return new Promise((resolve, reject) => {
      this.reservations.add(pairKey(tokenId, userId), { tokenId, userId, amount, now, resolve, reject })
    })
  }

  /** A settlement, or a refund (cost 0, not counted, no channel), with its consume log if any. */
  settle(settlement: Settlement, log?: NewLog): Promise<void> {
    let item!: QueuedSettlement
    const done = new Promise<void>((resolve, reject) => {
      item = { settlement, log, resolve, reject }
    })
    this.unsettled.set(item, done)
    const forget = () => this.unsettled.delete(item)
    done.then(forget, forget)
    this.settlements.add(pairKey(settlement[0], settlement[1]), item)
    return done
  }

  /**
   * The pair pays for the whole batch in one write when it can; when it cannot, each reservation is
   * decided alone in arrival order, so that those it can pay for are still granted (this happens
   * only as a balance runs out).
   */
  private async writeReservations(items: QueuedReservation[]): Promise<void> {
    const { tokenId, userId } = items[0]!
    const key = pairKey(tokenId, userId)
    try {
      // A reservation of the pair given up on earlier is fenced first (see fence); while that
      // fails, so do the pair's reservations (the database is out of reach for them too).
      const unfenced = this.unfenced.get(key)
      if (unfenced) {
        await this.fence(tokenId, userId, unfenced)
        this.unfenced.delete(key)
      }
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
      if (!(error instanceof ReservationGivenUp)) return
      this.unfenced.set(key, error)
      try {
        await this.fence(tokenId, userId, error)
        this.unfenced.delete(key)
      } catch {
        // Fenced before the pair's next reservation, then.
      }
    }
  }

  /**
   * A reservation given up on (all its tries failed) may have landed, or may land later from a try
   * still running, though its requests were refused: this records its id on the hold row, so that
   * no try of it lands from now on, and gives it back if one had. The pair's next reservations wait
   * for it (one of theirs would record a higher id and hide whether this one landed): it is tried
   * at once, and again before each of the pair's next reservations until it is written, so that
   * no reservation stays held for good and no request waits long behind it. Throws when its tries
   * fail.
   */
  private async fence(
    tokenId: number,
    userId: number,
    { writeId, amount }: ReservationGivenUp,
  ): Promise<void> {
    const landed = await withRetries(this.db, this.reservationRetries, async (db) => {
      const fenced = await db
        .updateTable('quota_holds')
        .set({ reserve_write: writeId })
        .where('node_id', '=', this.nodeId)
        .where('token_id', '=', tokenId)
        .where('user_id', '=', userId)
        .where('reserve_write', '<', writeId)
        .executeTakeFirst()
      if (Number(fenced.numUpdatedRows) === 1) return false
      // Not updated: the row records the reservation (it landed), or is gone (a sweep gave back
      // all it held).
      const row = await db
        .selectFrom('quota_holds')
        .select('node_id')
        .where('node_id', '=', this.nodeId)
        .where('token_id', '=', tokenId)
        .where('user_id', '=', userId)
        .executeTakeFirst()
      return row !== undefined
    })
    // Not awaited: the refund may wait out an outage, and the pair's reservations need not.
    if (landed) this.settle([tokenId, userId, 0, amount, 0, 0]).catch(() => {})
  }

  private async writeSettlements(items: QueuedSettlement[]): Promise<void> {
    const [tokenId, userId] = items[0]!.settlement
    const pair: PairSettlement = {
      tokenId,
      userId,
      reserved: 0,
      actual: 0,
      requests: 0,
      channels: new Map(),
      logs: [],
    }
    for (const {
      settlement: [, , channelId, reserved, actual, counted],
      log,
    } of items) {
      if (log) pair.logs.push(log)
      pair.reserved += reserved
      pair.actual += actual
      pair.requests += counted
      if (actual !== 0 && channelId > 0)
        pair.channels.set(channelId, (pair.channels.get(channelId) ?? 0) + actual)
    }
    try {
      await this.applyWhileRunning(pair, this.nextWriteId())
      for (const item of items) item.resolve()
    } catch (error) {
      for (const item of items) item.reject(error)
    }
  }

  /**
   * A settlement's requests were served: their charge is tried for as long as this node runs (the
   * same write, so it still lands once), in rounds of the settlement policy. The pair's later
   * settlements wait behind it meanwhile, and its reservation stays held.
   */
  private async applyWhileRunning(pair: PairSettlement, writeId: number): Promise<void> {
    const { tokenId, userId } = pair
    for (let round = 1; ; round++) {
      try {
        await this.guardedWrite(tokenId, userId, this.settlementRetries, true, (db) =>
          this.postgres
            ? settleOnPostgres(db, this.nodeId, pair, writeId)
            : settleOnMysql(db, this.nodeId, pair, writeId),
        )
        return
      } catch (error) {
        if (this.givingUp) throw error
        this.options.onSettlementDelayed?.(error, pair, round)
      }
    }
  }

  /** A refused reservation records nothing, so a retry after a lost try decides it again. */
  private async reserveOnce(
    tokenId: number,
    userId: number,
    amount: number,
    now: number,
  ): Promise<ReservationOutcome> {
    const writeId = this.nextWriteId()
    try {
      return await this.guardedWrite(tokenId, userId, this.reservationRetries, 'ok', (db) =>
        this.postgres
          ? reserveOnPostgres(db, this.nodeId, tokenId, userId, amount, now, writeId)
          : reserveOnMysql(db, this.nodeId, tokenId, userId, amount, now, writeId),
      )
    } catch (error) {
      throw new ReservationGivenUp(writeId, amount, error)
    }
  }

  private nextWriteId(): number {
    this.lastWriteId += 1
    return this.lastWriteId
  }

  /**
   * Runs `write`, guarded by its write id (see the class comment), and again on any failure
   * (write-retries.ts); `landed` is the write's value when a retry finds that a failed try had
   * landed after all.
   */
  private async guardedWrite<T>(
    tokenId: number,
    userId: number,
    policy: RetryPolicy,
    landed: T,
    write: (db: Kysely<MainSchema>) => Promise<Guarded<T>>,
  ): Promise<T> {
    await this.ensureHoldRow(tokenId, userId)
    return withRetries(this.db, policy, async (connection) => {
      for (;;) {
        const result = await write(connection)
        if (result.guard === 'ok') return result.value
        if (result.guard === 'landed') return landed
        // A sweep took this node for dead and removed the row: create it again and apply.
        await createHoldRow(connection, this.nodeId, tokenId, userId)
      }
    })
  }

  /** This node's hold row for the pair, created once (see createHoldRow). */
  private async ensureHoldRow(tokenId: number, userId: number): Promise<void> {
    const key = pairKey(tokenId, userId)
    if (this.holdRows.has(key)) return
    // Creating an existing row changes nothing, so this is safe to try again whatever failed.
    await withRetries(this.db, this.reservationRetries, (db) =>
      createHoldRow(db, this.nodeId, tokenId, userId),
    )
    if (this.holdRows.size >= HOLD_ROWS_REMEMBERED) this.holdRows.clear()
    this.holdRows.add(key)
  }
}

const pairKey = (tokenId: number, userId: number) => `${tokenId}:${userId}`

/** A reservation whose tries all failed: it may have landed all the same (see fence). */
class ReservationGivenUp extends Error {
  constructor(
    readonly writeId: number,
    readonly amount: number,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause })
  }
}
