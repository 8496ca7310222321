import type SqliteDatabase from 'better-sqlite3'

/**
 * The ledger's writes as prepared better-sqlite3 statements. On SQLite the cost of the relay's
 * billing is almost all BEGIN/COMMIT, so reservations and settlements queued by many requests are
 * committed together: one transaction, one commit, for a whole batch.
 */
export interface SqliteLedgerStatements {
  /**
   * In one transaction: applies the settlements, then tries each reservation in order. Returns one
   * outcome per reservation. Throws (with nothing applied) if the transaction fails.
   */
  commitBatch(
    reservations: ReadonlyArray<ReservationRequest>,
    settlements: ReadonlyArray<Settlement>,
  ): ReservationOutcome[]
  refund(tokenId: number, userId: number, amount: number): void
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

export type Settlement = readonly [
  tokenId: number,
  userId: number,
  channelId: number,
  reserved: number,
  actual: number,
]

export function prepareSqliteLedger(database: SqliteDatabase.Database): SqliteLedgerStatements {
  const reserveUser = database.prepare(
    'update users set quota = quota - @amount where id = @userId and quota >= @amount',
  )
  const reserveToken = database.prepare(
    `update tokens set remain_quota = case when unlimited_quota = 1 then remain_quota else remain_quota - @amount end,
       used_quota = used_quota + @amount, accessed_time = @now
     where id = @tokenId and (unlimited_quota = 1 or remain_quota >= @amount)`,
  )
  const tokenCanAfford = database
    .prepare('select 1 from tokens where id = @tokenId and (unlimited_quota = 1 or remain_quota >= @amount)')
    .pluck()
  const adjustToken = database.prepare(
    `update tokens set remain_quota = case when unlimited_quota = 1 then remain_quota else remain_quota - @delta end,
       used_quota = used_quota + @delta where id = @tokenId`,
  )
  const chargeUser = database.prepare(
    `update users set quota = quota - @delta, used_quota = used_quota + @actual, request_count = request_count + 1
     where id = @userId`,
  )
  const creditUser = database.prepare('update users set quota = quota + @amount where id = @userId')
  const chargeChannel = database.prepare(
    'update channels set used_quota = used_quota + @actual where id = @channelId',
  )

  /**
   * Both conditional updates of one reservation, or neither. Reservations share the batch's
   * transaction, so a refused one is undone by hand rather than by a rollback. The user is taken
   * first because that update only moves `quota` and is undone exactly; the token update also
   * stamps accessed_time, whose old value would be lost. The reason is the same as if the token
   * were checked first: a token that cannot pay is reported before a user who cannot.
   */
  const tryReserve = ({ tokenId, userId, amount, now }: ReservationRequest): ReservationOutcome => {
    if (reserveUser.run({ userId, amount }).changes !== 1) {
      return tokenCanAfford.get({ tokenId, amount }) === undefined ? 'token' : 'user'
    }
    if (reserveToken.run({ tokenId, amount, now }).changes === 1) return 'ok'
    creditUser.run({ userId, amount })
    return 'token'
  }
  const applySettlement = ([tokenId, userId, channelId, reserved, actual]: Settlement) => {
    const delta = actual - reserved
    if (delta !== 0) adjustToken.run({ tokenId, delta })
    chargeUser.run({ userId, delta, actual })
    if (actual !== 0 && channelId > 0) chargeChannel.run({ channelId, actual })
  }
  // Settlements first: a request that cost less than it reserved frees quota for the reservations
  // behind it. IMMEDIATE takes the write lock (or waits for it) before any statement runs.
  const commitBatch = database.transaction(
    (reservations: ReadonlyArray<ReservationRequest>, settlements: ReadonlyArray<Settlement>) => {
      for (const settlement of settlements) applySettlement(settlement)
      return reservations.map(tryReserve)
    },
  )
  const refund = database.transaction((tokenId: number, userId: number, amount: number) => {
    adjustToken.run({ tokenId, delta: -amount })
    creditUser.run({ userId, amount })
  })
  return {
    commitBatch: (reservations, settlements) => commitBatch.immediate(reservations, settlements),
    refund: (tokenId, userId, amount) => refund(tokenId, userId, amount),
  }
}
