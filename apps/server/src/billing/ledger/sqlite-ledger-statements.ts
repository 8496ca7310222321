import type SqliteDatabase from 'better-sqlite3'

/**
 * The ledger's writes as prepared better-sqlite3 statements: on SQLite the relay's two small
 * transactions per request are most of its database cost, and building and preparing them
 * through the query builder each time cost more than running them.
 */
export interface SqliteLedgerStatements {
  /** Returns 'ok', or which balance was short (the transaction is rolled back). */
  reserve(tokenId: number, userId: number, amount: number, now: number): 'ok' | 'token' | 'user'
  settle(tokenId: number, userId: number, channelId: number, reserved: number, actual: number): void
  /** Several settlements in one transaction (one commit instead of one per request). */
  settleMany(settlements: ReadonlyArray<Settlement>): void
  refund(tokenId: number, userId: number, amount: number): void
}

export type Settlement = readonly [
  tokenId: number,
  userId: number,
  channelId: number,
  reserved: number,
  actual: number,
]

export function prepareSqliteLedger(database: SqliteDatabase.Database): SqliteLedgerStatements {
  const reserveToken = database.prepare(
    `update tokens set remain_quota = case when unlimited_quota = 1 then remain_quota else remain_quota - @amount end,
       used_quota = used_quota + @amount, accessed_time = @now
     where id = @tokenId and (unlimited_quota = 1 or remain_quota >= @amount)`,
  )
  const reserveUser = database.prepare(
    'update users set quota = quota - @amount where id = @userId and quota >= @amount',
  )
  const adjustToken = database.prepare(
    `update tokens set remain_quota = case when unlimited_quota = 1 then remain_quota else remain_quota - @delta end,
       used_quota = used_quota + @delta where id = @tokenId`,
  )
  const chargeUser = database.prepare(
    `update users set quota = quota - @delta, used_quota = used_quota + @actual, request_count = request_count + 1
     where id = @userId`,
  )
  const refundUser = database.prepare('update users set quota = quota + @amount where id = @userId')
  const chargeChannel = database.prepare(
    'update channels set used_quota = used_quota + @actual where id = @channelId',
  )

  class Short extends Error {
    constructor(readonly reason: 'token' | 'user') {
      super(reason)
    }
  }
  const reserve = database.transaction((tokenId: number, userId: number, amount: number, now: number) => {
    if (reserveToken.run({ tokenId, amount, now }).changes !== 1) throw new Short('token')
    if (reserveUser.run({ userId, amount }).changes !== 1) throw new Short('user')
  })
  const applySettlement = (
    tokenId: number,
    userId: number,
    channelId: number,
    reserved: number,
    actual: number,
  ) => {
    const delta = actual - reserved
    if (delta !== 0) adjustToken.run({ tokenId, delta })
    chargeUser.run({ userId, delta, actual })
    if (actual !== 0 && channelId > 0) chargeChannel.run({ channelId, actual })
  }
  const settle = database.transaction(applySettlement)
  const settleMany = database.transaction((settlements: ReadonlyArray<Settlement>) => {
    for (const settlement of settlements) applySettlement(...settlement)
  })
  const refund = database.transaction((tokenId: number, userId: number, amount: number) => {
    adjustToken.run({ tokenId, delta: -amount })
    refundUser.run({ userId, amount })
  })
  return {
    reserve(tokenId, userId, amount, now) {
      try {
        reserve(tokenId, userId, amount, now)
        return 'ok'
      } catch (error) {
        if (error instanceof Short) return error.reason
        throw error
      }
    },
    settle: (tokenId, userId, channelId, reserved, actual) =>
      settle(tokenId, userId, channelId, reserved, actual),
    settleMany: (settlements) => settleMany(settlements),
    refund: (tokenId, userId, amount) => refund(tokenId, userId, amount),
  }
}
