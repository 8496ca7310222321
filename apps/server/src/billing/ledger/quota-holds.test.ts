import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../db/database.ts'
import { parseDatabaseTarget } from '../../db/dsn.ts'
import { migrateMain } from '../../db/migrations/migrate.ts'
import type { MainSchema } from '../../db/schema.ts'
import { insertUserWithToken } from '../../testing/ledger-rows.ts'
import { createScratchDatabase, type ScratchDatabase, testDialects } from '../../testing/test-databases.ts'
import { Ledger } from './ledger.ts'
import type { Reservation } from './ledger-types.ts'
import { QuotaHoldKeeper, sweepAbandonedHolds } from './quota-holds.ts'

const USER_QUOTA = 100_000
const TOKEN_QUOTA = 50_000

// Each Ledger is one gateway node; they share the database as the nodes of a deployment do.
describe.each(testDialects())('quota held by nodes on %s', (dialect) => {
  let directory: string
  let scratch: ScratchDatabase
  let handle: DatabaseHandle<MainSchema>
  let db: Kysely<MainSchema>
  const errors: unknown[] = []
  const ledgers: Ledger[] = []

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'one-api-holds-'))
    scratch = await createScratchDatabase(dialect, directory)
    handle = openDatabase<MainSchema>(parseDatabaseTarget(scratch.dsn, scratch.sqlitePath ?? ''), {
      poolSize: 20,
      busyTimeoutMs: 1000,
      maxLifetimeSeconds: 0,
    })
    db = handle.db
    await migrateMain(db as unknown as Kysely<unknown>, dialect)
    await insertUserWithToken(db, 1, USER_QUOTA, TOKEN_QUOTA)
    errors.length = 0
  })
  afterEach(async () => {
    for (const ledger of ledgers.splice(0)) await ledger.close()
    await handle?.close()
    await scratch?.drop()
    rmSync(directory, { recursive: true, force: true })
  })

  /** A node: its ledger and its keeper (registered, heartbeat left to the test). */
  async function startNode() {
    const ledger = new Ledger(db, handle.sqlite)
    ledgers.push(ledger)
    const keeper = new QuotaHoldKeeper(db, ledger.nodeId, {
      heartbeatMs: 3_600_000,
      onError: (error) => errors.push(error),
    })
    await keeper.start()
    const reserve = async (amount: number): Promise<Reservation> => {
      const result = await ledger.reserve(1, 1, amount)
      if (!result.ok) throw new Error(`refused: ${result.reason}`)
      return result.reservation
    }
    /** Settles and waits for the commit (SQLite queues settlements). */
    const settle = async (reservation: Reservation, actual: number) => {
      await ledger.settle(reservation, actual, 0)
      ledger.flushSettlements()
    }
    const refund = async (reservation: Reservation) => {
      await ledger.refund(reservation)
      ledger.flushSettlements()
    }
    return { ledger, keeper, reserve, settle, refund }
  }

  const balances = async () => {
    const user = await db
      .selectFrom('users')
      .select(['quota', 'used_quota'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow()
    const token = await db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow()
    return {
      userQuota: Number(user.quota),
      tokenRemain: Number(token.remain_quota),
      tokenUsed: Number(token.used_quota),
    }
  }
  /** Deadlocks the server has detected so far (PostgreSQL: in this database; MySQL: in all). */
  const deadlocks = async (): Promise<number> => {
    if (dialect === 'postgres') {
      const { rows } = await sql<{ deadlocks: string }>`
        select deadlocks from pg_stat_database where datname = current_database()`.execute(db)
      return Number(rows[0]?.deadlocks)
    }
    const { rows } = await sql<{ Value: string }>`show global status like 'Innodb_deadlocks'`.execute(db)
    return Number(rows[0]?.Value)
  }
  const heldBy = async (nodeId: string) =>
    (await db.selectFrom('quota_holds').select('amount').where('node_id', '=', nodeId).execute()).reduce(
      (sum, row) => sum + Number(row.amount),
      0,
    )
  /** The node stops: no settlement, no close, and its heartbeat ages past the timeout. */
  const die = (nodeId: string) =>
    db
      .updateTable('relay_nodes')
      .set({ heartbeat_at: Math.floor(Date.now() / 1000) - 1_000 })
      .where('node_id', '=', nodeId)
      .execute()

  it('gives back what a node that died held for its requests in flight, once', async () => {
    const crashed = await startNode()
    const survivor = await startNode()
    const served = await crashed.reserve(1_000)
    await crashed.reserve(2_000)
    await crashed.reserve(3_000)
    await crashed.settle(served, 400)
    const live = await survivor.reserve(500)
    expect(await heldBy(crashed.ledger.nodeId)).toBe(5_000)
    // Alive, its holds are its own business.
    expect(await survivor.keeper.sweep()).toBe(0)
    expect(await balances()).toEqual({
      userQuota: USER_QUOTA - 5_900,
      tokenRemain: TOKEN_QUOTA - 5_900,
      tokenUsed: 5_900,
    })

    await die(crashed.ledger.nodeId)
    expect(await survivor.keeper.sweep()).toBe(5_000)
    // What the dead node served stays billed; what it held comes back; the survivor's hold stays.
    expect(await balances()).toEqual({
      userQuota: USER_QUOTA - 900,
      tokenRemain: TOKEN_QUOTA - 900,
      tokenUsed: 900,
    })
    expect(await heldBy(crashed.ledger.nodeId)).toBe(0)
    expect(await heldBy(survivor.ledger.nodeId)).toBe(500)
    expect(await survivor.keeper.sweep()).toBe(0)
    await survivor.settle(live, 500)
    expect(await heldBy(survivor.ledger.nodeId)).toBe(0)
    expect(errors).toEqual([])
  })

  it('gives a dead node’s holds back once when several nodes sweep at the same time', async () => {
    const crashed = await startNode()
    const sweepers = [await startNode(), await startNode(), await startNode()]
    for (const amount of [1_000, 2_000, 4_000]) await crashed.reserve(amount)
    await die(crashed.ledger.nodeId)
    const givenBack = await Promise.all(sweepers.map((node) => node.keeper.sweep()))
    expect(givenBack.reduce((sum, quota) => sum + quota, 0)).toBe(7_000)
    expect(await balances()).toEqual({ userQuota: USER_QUOTA, tokenRemain: TOKEN_QUOTA, tokenUsed: 0 })
  })

  it('holds nothing once every request is settled or refunded, and leaves no trace when closed', async () => {
    const node = await startNode()
    const first = await node.reserve(1_000)
    const second = await node.reserve(2_000)
    expect(await heldBy(node.ledger.nodeId)).toBe(3_000)
    await node.settle(first, 1_700) // costs more than it reserved: the hold still goes to 0
    await node.refund(second)
    expect(await heldBy(node.ledger.nodeId)).toBe(0)
    expect(await balances()).toEqual({
      userQuota: USER_QUOTA - 1_700,
      tokenRemain: TOKEN_QUOTA - 1_700,
      tokenUsed: 1_700,
    })
    await node.keeper.close()
    expect(await db.selectFrom('quota_holds').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('relay_nodes').selectAll().execute()).toEqual([])
  })

  it('charges a node taken for dead what its requests cost when it settles after all, once', async () => {
    // Paused past the timeout (a suspended machine), then back: what a sweep gave back is taken again.
    const paused = await startNode()
    const survivor = await startNode()
    const served = await paused.reserve(1_000)
    const failed = await paused.reserve(500)
    await die(paused.ledger.nodeId)
    expect(await survivor.keeper.sweep()).toBe(1_500)
    await paused.settle(served, 400)
    await paused.refund(failed)
    expect(await balances()).toEqual({
      userQuota: USER_QUOTA - 400,
      tokenRemain: TOKEN_QUOTA - 400,
      tokenUsed: 400,
    })
    expect(await heldBy(paused.ledger.nodeId)).toBe(0)
  })

  it('charges a resumed node exactly when its new requests share the hold row with old ones', async () => {
    const paused = await startNode()
    const survivor = await startNode()
    const old = await paused.reserve(1_000)
    await die(paused.ledger.nodeId)
    expect(await survivor.keeper.sweep()).toBe(1_000)
    // Back, it takes a new request before the old one settles: the row now holds the new one's 3 000.
    const fresh = await paused.reserve(3_000)
    await paused.settle(old, 400)
    await paused.settle(fresh, 2_000)
    expect(await balances()).toEqual({
      userQuota: USER_QUOTA - 2_400,
      tokenRemain: TOKEN_QUOTA - 2_400,
      tokenUsed: 2_400,
    })
    expect(await heldBy(paused.ledger.nodeId)).toBe(0)
  })

  it('reserves for many tokens at once on a fresh node without deadlocks', async () => {
    // Each token's first reservation on a node creates its hold row: on MySQL, inserts inside the
    // reservations' transactions deadlocked (a few in a hundred failed, others waited seconds).
    const pairs = Array.from({ length: 100 }, (_, index) => index + 10)
    for (const id of pairs) {
      await insertUserWithToken(db, id, 10_000, 10_000)
    }
    const node = await startNode()
    const started = Date.now()
    const results = await Promise.all(pairs.map((id) => node.ledger.reserve(id, id, 100)))
    expect(results.every((result) => result.ok)).toBe(true)
    // A lock wait would take seconds (a deadlock victim fails, caught above); a busy machine may take 2-3 s.
    expect(Date.now() - started).toBeLessThan(8_000)
    const held = await db
      .selectFrom('quota_holds')
      .select(['amount'])
      .where('node_id', '=', node.ledger.nodeId)
      .execute()
    expect(held.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(10_000)
  })

  it.skipIf(dialect === 'sqlite')(
    "sweeps dead nodes' holds while live requests of the same tokens settle, without deadlocks",
    async () => {
      // A sweep gives back to the token and the user in the order the ledger locks them; in the
      // other order, on PostgreSQL, sweeps and settlements deadlocked and sweeps failed.
      const ids = [21, 22, 23, 24, 25]
      for (const id of ids) await insertUserWithToken(db, id, 1e12, 1e12)
      const node = await startNode()
      const deadlocksBefore = await deadlocks()
      const until = Date.now() + 1_500
      const requests = async (id: number) => {
        while (Date.now() < until) {
          const reserved = await node.ledger.reserve(id, id, 100)
          if (!reserved.ok) throw new Error(`refused: ${reserved.reason}`)
          await node.ledger.settle(reserved.reservation, 60, 0)
        }
      }
      let sweeps = 0
      const sweeper = async (index: number) => {
        while (Date.now() < until) {
          for (const id of ids) {
            await db
              .insertInto('quota_holds')
              .values({ node_id: `dead-${index}-${sweeps}`, token_id: id, user_id: id, amount: 7 })
              .execute()
          }
          await sweepAbandonedHolds(db, `sweeper-${index}`, 300)
          sweeps += 1
        }
      }
      await Promise.all([
        ...ids.flatMap((id) => Array.from({ length: 6 }, () => requests(id))),
        ...Array.from({ length: 3 }, (_, index) => sweeper(index)),
      ])
      expect(sweeps).toBeGreaterThan(0)
      expect(await deadlocks()).toBe(deadlocksBefore)
    },
  )

  it('gives back at start what a crashed predecessor held, once it counts as dead', async () => {
    const crashed = await startNode()
    await crashed.reserve(2_500)
    await die(crashed.ledger.nodeId)
    // The next process on this database sweeps as it starts.
    const restarted = new QuotaHoldKeeper(db, 'restarted-node', { onError: (error) => errors.push(error) })
    await restarted.start()
    await restarted.close()
    expect(await balances()).toEqual({ userQuota: USER_QUOTA, tokenRemain: TOKEN_QUOTA, tokenUsed: 0 })
    expect(errors).toEqual([])
  })
})
