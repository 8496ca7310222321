import { createServer, type Socket } from 'node:net'
import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../db/database.ts'
import { parseDatabaseTarget } from '../../db/dsn.ts'
import { migrateMain } from '../../db/migrations/migrate.ts'
import type { MainSchema } from '../../db/schema.ts'
import { freePort } from '../../testing/free-port.ts'
import { insertUserWithToken } from '../../testing/ledger-rows.ts'
import { TcpCut } from '../../testing/tcp-cut.ts'
import {
  createScratchDatabase,
  MYSQL_URL,
  POSTGRES_URL,
  type ScratchDatabase,
  type TestDialect,
} from '../../testing/test-databases.ts'
import { Ledger } from './ledger.ts'

const servers: Array<[TestDialect, string | undefined]> = [
  ['postgres', POSTGRES_URL],
  ['mysql', MYSQL_URL],
]

// The database out of reach for a moment (a restart, a failover): connections are dropped and
// new ones refused. What the ledger writes meanwhile never reaches the database, so it is written
// once the database is back: a served request's charge is not lost, and a waiting request's
// reservation is granted if the outage is short.
describe.each(servers)('Ledger on %s: a short database outage', (dialect, serverUrl) => {
  let scratch: ScratchDatabase
  let partition: TcpCut
  let direct: DatabaseHandle<MainSchema>
  let throughCut: DatabaseHandle<MainSchema>
  let ledger: Ledger

  beforeAll(async () => {
    if (!serverUrl) return
    scratch = await createScratchDatabase(dialect, '')
    const options = { poolSize: 2, busyTimeoutMs: 1000, maxLifetimeSeconds: 0 }
    direct = openDatabase<MainSchema>(parseDatabaseTarget(scratch.dsn, ''), options)
    await migrateMain(direct.db as unknown as Kysely<unknown>, dialect)
    await insertUserWithToken(direct.db, 1, 10_000, 10_000)
    const url = new URL(scratch.dsn!)
    partition = await TcpCut.start(Number(url.port || (dialect === 'postgres' ? 5432 : 3306)))
    url.port = String(partition.port)
    throughCut = openDatabase<MainSchema>(parseDatabaseTarget(url.toString(), ''), options)
    ledger = new Ledger(throughCut.db)
  })
  afterAll(async () => {
    await throughCut?.close()
    await partition?.close()
    await direct?.close()
    await scratch?.drop()
  })

  const balances = async () => ({
    user: await direct.db
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow(),
    token: await direct.db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow(),
    held: await direct.db
      .selectFrom('quota_holds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('amount'))
      .executeTakeFirstOrThrow(),
  })

  /** Cuts the database off, and lets the pool see its connections drop before anything is sent. */
  const outage = async () => {
    partition.cut()
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  it.skipIf(!serverUrl)(
    'a settlement made during the outage is written once the database is back',
    async () => {
      const reserved = await ledger.reserve(1, 1, 500)
      if (!reserved.ok) throw new Error('refused')
      await outage()
      let settled = false
      const settlement = ledger.settle(reserved.reservation, 40, 0).then(() => {
        settled = true
      })
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(settled).toBe(false)
      partition.restore()
      await settlement
      expect(await balances()).toEqual({
        user: { quota: 9_960, used_quota: 40, request_count: 1 },
        token: { remain_quota: 9_960, used_quota: 40 },
        held: { amount: 0 },
      })
    },
  )

  it.skipIf(!serverUrl)(
    'a reservation asked for during a short outage is granted once it is over',
    async () => {
      await outage()
      const reserving = ledger.reserve(1, 1, 300)
      setTimeout(() => partition.restore(), 500)
      const reserved = await reserving
      expect(reserved.ok).toBe(true)
      if (!reserved.ok) return
      expect(await balances()).toMatchObject({
        user: { quota: 9_660 },
        token: { remain_quota: 9_660 },
        held: { amount: 300 },
      })
      await ledger.refund(reserved.reservation)
      expect(await balances()).toMatchObject({ user: { quota: 9_960 }, held: { amount: 0 } })
    },
  )

  // What each dialect's ledger sends as the last part of a settlement's write: PostgreSQL's one
  // statement, MySQL's commit of the write's transaction.
  const settleMarker = dialect === 'postgres' ? 'released_hold' : 'commit'
  const reserveMarker = dialect === 'postgres' ? 'held as (' : 'commit'

  it.skipIf(!serverUrl)(
    'a settlement whose connection dropped after the database committed it is applied once',
    async () => {
      const reserved = await ledger.reserve(1, 1, 500)
      if (!reserved.ok) throw new Error('refused')
      const lost = partition.loseAnswerTo(settleMarker)
      const before = await balances()
      await ledger.settle(reserved.reservation, 70, 0)
      await lost
      expect(await balances()).toEqual({
        user: {
          ...before.user,
          quota: before.user.quota + 430,
          used_quota: before.user.used_quota + 70,
          request_count: before.user.request_count + 1,
        },
        token: { remain_quota: before.token.remain_quota + 430, used_quota: before.token.used_quota - 430 },
        held: { amount: 0 },
      })
    },
  )

  it.skipIf(!serverUrl)(
    'a reservation whose connection dropped after the database committed it is taken once',
    async () => {
      const before = await balances()
      const lost = partition.loseAnswerTo(reserveMarker)
      const reserved = await ledger.reserve(1, 1, 250)
      await lost
      expect(reserved.ok).toBe(true)
      expect(await balances()).toMatchObject({
        user: { quota: before.user.quota - 250 },
        token: { remain_quota: before.token.remain_quota - 250 },
        held: { amount: 250 },
      })
      if (reserved.ok) await ledger.refund(reserved.reservation)
      expect(await balances()).toEqual(before)
    },
  )

  /**
   * A reservation of 100 whose first try lands, its answer lost, with the database out of reach
   * for all its other tries: refused to its caller, though it was taken and held. The cut stays.
   */
  async function reservationGivenUpAfterItLanded() {
    const lost = partition.loseAnswerTo(reserveMarker)
    void lost.then(() => partition.cut())
    await expect(ledger.reserve(1, 1, 100)).rejects.toThrow()
  }

  /** Only `reserved` (of `amount`) is taken and held since `before`; given back, all is as before. */
  async function expectOnlyHeld(
    before: Awaited<ReturnType<typeof balances>>,
    reserved: Awaited<ReturnType<Ledger['reserve']>>,
    amount: number,
  ) {
    expect(await balances()).toMatchObject({
      user: { quota: before.user.quota - amount },
      token: { remain_quota: before.token.remain_quota - amount },
      held: { amount: before.held.amount + amount },
    })
    if (reserved.ok) await ledger.refund(reserved.reservation)
    expect(await balances()).toEqual(before)
  }

  it.skipIf(!serverUrl)(
    'a reservation given up on after a try that landed is given back, and the next write of the pair is exact',
    async () => {
      const before = await balances()
      await reservationGivenUpAfterItLanded()
      partition.restore()
      // The next reservation waits until the refused one is found out and given back. Its own
      // first answer is lost too: it must still be taken, exactly once.
      const lostAgain = partition.loseAnswerTo(reserveMarker)
      const reserved = await ledger.reserve(1, 1, 50)
      await lostAgain
      expect(reserved.ok).toBe(true)
      await expectOnlyHeld(before, reserved, 50)
    },
    15_000,
  )

  it.skipIf(!serverUrl)(
    'a reservation given up on whose fence fails too is fenced before the next one, which meanwhile fails fast',
    async () => {
      const before = await balances()
      await reservationGivenUpAfterItLanded()
      // Its fence fails as well. The pair's next reservation fails in seconds: it used to wait
      // behind a fence tried for a minute, and the reservation then stayed held until the node stopped.
      const started = Date.now()
      await expect(ledger.reserve(1, 1, 60)).rejects.toThrow()
      expect(Date.now() - started).toBeLessThan(8_000)
      partition.restore()
      // The next reservation fences the first (it had landed: it is given back), then is taken.
      const reserved = await ledger.reserve(1, 1, 50)
      expect(reserved.ok).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 300))
      await expectOnlyHeld(before, reserved, 50)
    },
    30_000,
  )

  it.skipIf(!serverUrl)(
    'a reservation whose database stops answering mid-way is tried again on another connection, and taken once',
    async () => {
      // Without a limit on each try, a write sent on a connection whose server went silent waited
      // for as long as TCP took to give up: minutes.
      const options = { poolSize: 4, busyTimeoutMs: 1000, maxLifetimeSeconds: 0, connectTimeoutMs: 300 }
      const url = new URL(scratch.dsn!)
      url.port = String(partition.port)
      const handle = openDatabase<MainSchema>(parseDatabaseTarget(url.toString(), ''), options)
      const quick = new Ledger(handle.db, undefined, { attemptTimeoutMs: 300 })
      try {
        const warm = await quick.reserve(1, 1, 10)
        if (!warm.ok) throw new Error('refused')
        const before = await balances()
        partition.freeze()
        setTimeout(() => partition.thaw(), 1_000)
        const started = Date.now()
        const reserved = await quick.reserve(1, 1, 100)
        expect(reserved.ok).toBe(true)
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(await balances()).toMatchObject({
          user: { quota: before.user.quota - 100 },
          held: { amount: before.held.amount + 100 },
        })
        if (reserved.ok) await quick.refund(reserved.reservation)
        await quick.refund(warm.reservation)
        expect(await balances()).toMatchObject({ held: { amount: before.held.amount - 10 } })
      } finally {
        // The connection that went silent is still waiting for its answer: dropping it ends that
        // (and mysql2's pool reports that connection's loss as it closes).
        partition.cut()
        partition.restore()
        await handle.close().catch(() => {})
      }
    },
    15_000,
  )

  it.skipIf(!serverUrl)(
    'a reservation fails, rather than waits for ever, when the database accepts connections and never answers',
    async () => {
      // A server that takes connections and says nothing, as a hung database or a black-holed
      // address does: without a connect timeout the pool waited on it for ever.
      const port = await freePort()
      const silent = new Set<Socket>()
      const server = createServer((socket) => silent.add(socket))
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
      const url = new URL(scratch.dsn!)
      url.port = String(port)
      const hung = openDatabase<MainSchema>(parseDatabaseTarget(url.toString(), ''), {
        poolSize: 2,
        busyTimeoutMs: 1000,
        maxLifetimeSeconds: 0,
        connectTimeoutMs: 200,
      })
      try {
        const before = await balances()
        const started = Date.now()
        await expect(new Ledger(hung.db).reserve(1, 1, 100)).rejects.toThrow(/timeout|ETIMEDOUT/i)
        // Five tries of 200 ms, with the waits between them: seconds, not for ever.
        expect(Date.now() - started).toBeLessThan(8_000)
        expect(await balances()).toEqual(before)
      } finally {
        for (const socket of silent) socket.destroy()
        await new Promise((resolve) => server.close(resolve))
        await hung.close().catch(() => {})
      }
    },
    15_000,
  )

  // One round of a settlement's tries takes about a minute in production; here, a fraction of a second.
  const shortRounds = { settlementRetries: { delays: [20, 50], attemptTimeoutMs: 500 } }

  it.skipIf(!serverUrl)(
    'a settlement the database does not take for several rounds of tries is applied once it is back',
    async () => {
      const delayed: number[] = []
      const patient = new Ledger(throughCut.db, undefined, {
        ...shortRounds,
        onSettlementDelayed: (_error, pair, round) => delayed.push(round, pair.actual),
      })
      const before = await balances()
      const reserved = await patient.reserve(1, 1, 500)
      if (!reserved.ok) throw new Error('refused')
      await outage()
      let settled = false
      const settlement = patient.settle(reserved.reservation, 40, 0).then(() => {
        settled = true
      })
      // Before, the charge was given up after one round: the requests went unbilled.
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(settled).toBe(false)
      expect(delayed.slice(0, 4)).toEqual([1, 40, 2, 40])
      partition.restore()
      await settlement
      expect(await balances()).toEqual({
        user: {
          quota: before.user.quota - 40,
          used_quota: before.user.used_quota + 40,
          request_count: before.user.request_count + 1,
        },
        token: { remain_quota: before.token.remain_quota - 40, used_quota: before.token.used_quota + 40 },
        held: before.held,
      })
    },
  )

  it.skipIf(!serverUrl)(
    'a node stopping while the database is out waits for its charges, then names those it gives up',
    async () => {
      // Tries that hang (a database that stopped answering) make a round last 1.5 s here.
      const stopping = new Ledger(throughCut.db, undefined, {
        settlementRetries: { delays: [20, 50], attemptTimeoutMs: 500 },
      })
      const before = await balances()
      const reserved = await stopping.reserve(1, 1, 500)
      if (!reserved.ok) throw new Error('refused')
      partition.freeze()
      let told = ''
      const settlement = stopping.settle(reserved.reservation, 40, 7).catch((error: Error) => {
        told = error.message
      })
      const started = Date.now()
      const lost = await stopping.close(400)
      expect(Date.now() - started).toBeGreaterThanOrEqual(390)
      expect(lost).toEqual([{ tokenId: 1, userId: 1, channelId: 7, reserved: 500, cost: 40, requests: 1 }])
      // Its caller is told at once, so its log is written before the log writer closes: it was told
      // only when the round in progress ended.
      await new Promise((resolve) => setImmediate(resolve))
      expect(told).toMatch(/stopped before the database took this charge/)
      await settlement
      partition.thaw()
      partition.cut()
      partition.restore()
      // The reservation stays held by the stopped node, for a sweep to give back.
      expect(await balances()).toMatchObject({ held: { amount: before.held.amount + 500 } })
    },
  )
})
