import type SqliteDatabase from 'better-sqlite3'
import type { NewLog } from '../../db/schema.ts'
import { LOG_STATEMENTS, logBatch } from '../sqlite-log-statements.ts'

/**
 * The ledger's writes as prepared better-sqlite3 statements. On SQLite the cost of the relay's
 * billing is almost all BEGIN/COMMIT, so reservations and settlements queued by many requests are
 * committed together: one transaction, one commit, for a whole batch.
 */
export interface SqliteLedgerStatements {
  /**
   * In one transaction: applies the settlements and stores the consume logs of their requests (a
   * charge and its log become durable together), then tries each reservation in order. Returns one
   * outcome per reservation. Throws (with nothing applied) if the transaction fails.
   */
  commitBatch(
    reservations: ReadonlyArray<ReservationRequest>,
    settlements: ReadonlyArray<Settlement>,
    logs: readonly NewLog[],
  ): ReservationOutcome[]
}

export interface ReservationRequest {
  tokenId: number
  userId: number
  amount: number
  /** Unix seconds of the request, stamped on the token as its last access. */
  now: number
}

/** 'ok', or which balance was too short (then the reservation changed nothing). */
export type ReservationOutcome = 'ok' | 'token' | 'user'

/**
 * A request's reservation replaced by what it cost. A refund is a settlement that cost nothing and
 * is not counted as a request (`counted` 0).
 */
export type Settlement = readonly [
  tokenId: number,
  userId: number,
  channelId: number,
  reserved: number,
  actual: number,
  counted: 0 | 1,
]

/** `nodeId`: this process, under which the quota it holds is recorded (quota-holds.ts). */
export function prepareSqliteLedger(
  database: SqliteDatabase.Database,
  nodeId: string,
): SqliteLedgerStatements {
  const readToken = database.prepare('select remain_quota, unlimited_quota from tokens where id = ?')
  const readUser = database.prepare('select quota from users where id = ?').pluck()
  const takeFromToken = database.prepare(
    `update tokens set remain_quota = case when unlimited_quota = 1 then remain_quota else remain_quota - @amount end,
       used_quota = used_quota + @amount, accessed_time = max(accessed_time, @now)
     where id = @tokenId`,
  )
  const takeFromUser = database.prepare('update users set quota = quota - @amount where id = @userId')
  const adjustToken = database.prepare(
    `update tokens set remain_quota = case when unlimited_quota = 1 then remain_quota else remain_quota - @delta end,
       used_quota = used_quota + @delta where id = @tokenId`,
  )
  const chargeUser = database.prepare(
    `update users set quota = quota - @delta, used_quota = used_quota + @actual, request_count = request_count + @requests
     where id = @userId`,
  )
  const chargeChannel = database.prepare(
    'update channels set used_quota = used_quota + @actual where id = @channelId',
  )
  const addHold = database.prepare(
    `insert into quota_holds (node_id, token_id, user_id, amount) values (@nodeId, @tokenId, @userId, @delta)
     on conflict (node_id, token_id, user_id) do update set amount = quota_holds.amount + excluded.amount`,
  )
  const readHold = database
    .prepare('select amount from quota_holds where node_id = ? and token_id = ? and user_id = ?')
    .pluck()
  /**
   * What the batch changes in this node's holds, per token and user: one upsert per pair. A hold
   * smaller than what the batch's settlements release was given back by a sweep that took this node
   * for dead (another process on this file): that part is taken from the token and user again, so
   * each request still costs what it cost, and never given back twice.
   */
  const writeHolds = (
    reservations: ReadonlyArray<ReservationRequest>,
    outcomes: ReadonlyArray<ReservationOutcome>,
    settlements: ReadonlyArray<Settlement>,
  ) => {
    const pairs = new Map<number, Map<number, { granted: number; released: number }>>()
    const pair = (tokenId: number, userId: number) => {
      const byUser = pairs.get(tokenId) ?? new Map<number, { granted: number; released: number }>()
      pairs.set(tokenId, byUser)
      const found = byUser.get(userId) ?? { granted: 0, released: 0 }
      byUser.set(userId, found)
      return found
    }
    reservations.forEach(({ tokenId, userId, amount }, index) => {
      if (outcomes[index] === 'ok') pair(tokenId, userId).granted += amount
    })
    for (const [tokenId, userId, , reserved] of settlements) pair(tokenId, userId).released += reserved
    for (const [tokenId, byUser] of pairs) {
      for (const [userId, { granted, released }] of byUser) {
        let swept = 0
        if (released > 0) {
          const held = Number(readHold.get(nodeId, tokenId, userId) ?? 0)
          swept = Math.max(0, released - Math.max(held, 0))
          if (swept > 0) {
            takeFromToken.run({ tokenId, amount: swept, now: 0 })
            takeFromUser.run({ userId, amount: swept })
          }
        }
        const delta = granted - (released - swept)
        if (delta !== 0) addHold.run({ nodeId, tokenId, userId, delta })
      }
    }
  }

  /**
   * The batch's reservations, decided in arrival order against balances read once inside the
   * write transaction (nobody else can change them until it commits), then written as one update
   * per token and per user. A reservation is granted only if both its token (unless unlimited) and
   * its user still hold the amount after the ones granted before it; a refused one changes nothing.
   * The token is reported before the user when neither can pay.
   */
  const reserveAll = (reservations: ReadonlyArray<ReservationRequest>): ReservationOutcome[] => {
    const tokens = new Map<number, { remaining: number; unlimited: boolean; taken: number; now: number }>()
    const users = new Map<number, { remaining: number; taken: number }>()
    return reservations.map(({ tokenId, userId, amount, now }) => {
      let token = tokens.get(tokenId)
      if (!token) {
        const row = readToken.get(tokenId) as { remain_quota: number; unlimited_quota: number } | undefined
        token = row
          ? { remaining: row.remain_quota, unlimited: Boolean(row.unlimited_quota), taken: 0, now }
          : { remaining: -1, unlimited: false, taken: 0, now }
        tokens.set(tokenId, token)
      }
      let user = users.get(userId)
      if (!user) {
        const quota = readUser.get(userId) as number | undefined
        user = { remaining: quota ?? -1, taken: 0 }
        users.set(userId, user)
      }
      if (!token.unlimited && token.remaining < amount) return 'token'
      if (user.remaining < amount) return 'user'
      if (!token.unlimited) token.remaining -= amount
      token.taken += amount
      token.now = Math.max(token.now, now)
      user.remaining -= amount
      user.taken += amount
      return 'ok'
    })
  }
  const writeReservations = (
    reservations: ReadonlyArray<ReservationRequest>,
    outcomes: ReadonlyArray<ReservationOutcome>,
  ) => {
    const byToken = new Map<number, { amount: number; now: number }>()
    const byUser = new Map<number, number>()
    reservations.forEach(({ tokenId, userId, amount, now }, index) => {
      if (outcomes[index] !== 'ok') return
      const token = byToken.get(tokenId)
      if (token) {
        token.amount += amount
        token.now = Math.max(token.now, now)
      } else {
        byToken.set(tokenId, { amount, now })
      }
      byUser.set(userId, (byUser.get(userId) ?? 0) + amount)
    })
    for (const [tokenId, { amount, now }] of byToken) takeFromToken.run({ tokenId, amount, now })
    for (const [userId, amount] of byUser) takeFromUser.run({ userId, amount })
  }

  /** The batch's settlements summed per token, user and channel: the same end state, fewer updates. */
  const settleAll = (settlements: ReadonlyArray<Settlement>) => {
    const tokenDeltas = new Map<number, number>()
    const users = new Map<number, { delta: number; actual: number; requests: number }>()
    const channels = new Map<number, number>()
    for (const [tokenId, userId, channelId, reserved, actual, counted] of settlements) {
      const delta = actual - reserved
      tokenDeltas.set(tokenId, (tokenDeltas.get(tokenId) ?? 0) + delta)
      const user = users.get(userId) ?? { delta: 0, actual: 0, requests: 0 }
      user.delta += delta
      user.actual += actual
      user.requests += counted
      users.set(userId, user)
      if (actual !== 0 && channelId > 0) channels.set(channelId, (channels.get(channelId) ?? 0) + actual)
    }
    for (const [tokenId, delta] of tokenDeltas) if (delta !== 0) adjustToken.run({ tokenId, delta })
    for (const [userId, user] of users) chargeUser.run({ userId, ...user })
    for (const [channelId, actual] of channels) chargeChannel.run({ channelId, actual })
  }

  // The consume logs, written by the same statements the log write thread runs (logBatch).
  const logStatements: SqliteDatabase.Statement[] = []
  const insertLogs = (logs: readonly NewLog[]) => {
    if (logs.length === 0) return
    const batch = logBatch(logs)
    if (!batch) throw new Error('a consume log leaves a column unset')
    for (const [index, parameters] of batch) {
      logStatements[index] ??= database.prepare(LOG_STATEMENTS[index]!)
      logStatements[index]!.run(parameters)
    }
  }

  // Settlements first: a request that cost less than it reserved frees quota for the reservations
  // behind it. IMMEDIATE takes the write lock (or waits for it) before any statement runs, so the
  // balances read by reserveAll cannot change before the commit.
  const commitBatch = database.transaction(
    (
      reservations: ReadonlyArray<ReservationRequest>,
      settlements: ReadonlyArray<Settlement>,
      logs: readonly NewLog[],
    ) => {
      settleAll(settlements)
      insertLogs(logs)
      const outcomes = reserveAll(reservations)
      writeReservations(reservations, outcomes)
      writeHolds(reservations, outcomes, settlements)
      return outcomes
    },
  )
  return {
    commitBatch: (reservations, settlements, logs) => commitBatch.immediate(reservations, settlements, logs),
  }
}
