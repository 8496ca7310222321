import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../db/database.ts'
import { migrateMain } from '../../db/migrations/migrate.ts'
import type { MainSchema } from '../../db/schema.ts'
import { Ledger } from './ledger.ts'
import type { Reservation, ReserveResult } from './ledger-types.ts'

const BUSY_TIMEOUT_MS = 250
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

function reservationOf(result: ReserveResult): Reservation {
  if (!result.ok) throw new Error(`reservation refused (${result.reason})`)
  return result.reservation
}

/** A stand-in for the log writer's side of the shared write lock. */
function sharedWriter(writing: boolean) {
  const listeners: Array<() => void> = []
  return {
    writing,
    onWriteDone(listener: () => void) {
      listeners.push(listener)
    },
    done() {
      this.writing = false
      for (const listener of listeners) listener()
    },
  }
}

describe('Ledger on SQLite: reservations committed in batches', () => {
  let directory: string
  let path: string
  let handles: DatabaseHandle<MainSchema>[]
  let ledgers: Ledger[]
  let observer: SqliteDatabase.Database
  let handle: DatabaseHandle<MainSchema>
  let ledger: Ledger

  /** A ledger on a connection of its own, as another gateway process sharing the file would have. */
  async function openLedger(): Promise<{ handle: DatabaseHandle<MainSchema>; ledger: Ledger }> {
    const opened = openDatabase<MainSchema>(
      { dialect: 'sqlite', path },
      { poolSize: 1, busyTimeoutMs: BUSY_TIMEOUT_MS, maxLifetimeSeconds: 0 },
    )
    handles.push(opened)
    await migrateMain(opened.db as unknown as Kysely<unknown>, 'sqlite')
    const created = new Ledger(opened.db, opened.sqlite)
    ledgers.push(created)
    return { handle: opened, ledger: created }
  }

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'one-api-ledger-'))
    path = join(directory, 'ledger.db')
    handles = []
    ledgers = []
    ;({ handle, ledger } = await openLedger())
    // Reads what is committed, through a connection of its own.
    observer = new SqliteDatabase(path, { readonly: true })
  })
  afterEach(async () => {
    for (const each of ledgers) await each.close()
    for (const each of handles) await each.close()
    observer?.close()
    rmSync(directory, { recursive: true, force: true })
  })

  function createUser(quota: number): number {
    const name = `user-${randomBytes(4).toString('hex')}`
    return Number(
      handle
        .sqlite!.prepare("insert into users (username, password, quota) values (?, 'x', ?)")
        .run(name, quota).lastInsertRowid,
    )
  }

  function createToken(userId: number, remainQuota: number, unlimited = false): number {
    const key = randomBytes(24).toString('hex')
    return Number(
      handle
        .sqlite!.prepare(
          'insert into tokens (user_id, key, remain_quota, unlimited_quota, accessed_time) values (?, ?, ?, ?, 1)',
        )
        .run(userId, key, remainQuota, unlimited ? 1 : 0).lastInsertRowid,
    )
  }

  function createChannel(): number {
    return Number(
      handle.sqlite!.prepare("insert into channels (key, name) values ('k', 'c')").run().lastInsertRowid,
    )
  }

  const user = (id: number) =>
    observer.prepare('select quota, used_quota, request_count from users where id = ?').get(id)
  const token = (id: number) =>
    observer.prepare('select remain_quota, used_quota, accessed_time from tokens where id = ?').get(id) as {
      remain_quota: number
      used_quota: number
      accessed_time: number
    }
  const channelUsed = (id: number) =>
    observer.prepare('select used_quota from channels where id = ?').pluck().get(id)

  it('grants exactly the reservations a token can afford out of a burst issued in one tick', async () => {
    const userId = createUser(1_000_000)
    // Affords 250 reservations of 100, plus 50 left over that pays for none.
    const tokenId = createToken(userId, 250 * 100 + 50)
    const results = await Promise.all(Array.from({ length: 600 }, () => ledger.reserve(tokenId, userId, 100)))

    expect(results.filter((result) => result.ok)).toHaveLength(250)
    // First come, first served: the queue is processed in the order the requests arrived.
    expect(results.slice(0, 250).every((result) => result.ok)).toBe(true)
    expect(results.slice(250)).toEqual(Array(350).fill({ ok: false, reason: 'token' }))
    expect(token(tokenId)).toMatchObject({ remain_quota: 50, used_quota: 25_000 })
    expect(user(userId)).toMatchObject({ quota: 1_000_000 - 25_000 })
  })

  it('grants exactly what a user can afford, across tokens, and leaves the refused tokens untouched', async () => {
    const userId = createUser(300)
    const tokenIds = Array.from({ length: 5 }, () => createToken(userId, 10_000))
    const results = await Promise.all(tokenIds.map((tokenId) => ledger.reserve(tokenId, userId, 100)))

    expect(results.map((result) => (result.ok ? 'ok' : result.reason))).toEqual([
      'ok',
      'ok',
      'ok',
      'user',
      'user',
    ])
    expect(user(userId)).toMatchObject({ quota: 0 })
    for (const tokenId of tokenIds.slice(3)) {
      expect(token(tokenId)).toEqual({ remain_quota: 10_000, used_quota: 0, accessed_time: 1 })
    }
  })

  it('reports the token first when neither the token nor the user can pay', async () => {
    const userId = createUser(10)
    const tokenId = createToken(userId, 10)
    expect(await ledger.reserve(tokenId, userId, 100)).toEqual({ ok: false, reason: 'token' })
    expect(token(tokenId)).toEqual({ remain_quota: 10, used_quota: 0, accessed_time: 1 })
    expect(user(userId)).toMatchObject({ quota: 10 })
  })

  it('never lets two gateways sharing the database overdraw a token', async () => {
    const other = (await openLedger()).ledger
    const userId = createUser(1_000_000)
    const tokenId = createToken(userId, 40 * 100)
    const bursts = await Promise.all(
      Array.from({ length: 100 }, (_, index) => (index % 2 ? other : ledger).reserve(tokenId, userId, 100)),
    )

    expect(bursts.filter((result) => result.ok)).toHaveLength(40)
    expect(token(tokenId)).toMatchObject({ remain_quota: 0, used_quota: 4000 })
    expect(user(userId)).toMatchObject({ quota: 1_000_000 - 4000 })
  })

  it('counts usage on an unlimited token without spending it, but still charges the user', async () => {
    const userId = createUser(150)
    const tokenId = createToken(userId, 0, true)
    const [first, second] = await Promise.all([
      ledger.reserve(tokenId, userId, 100),
      ledger.reserve(tokenId, userId, 100),
    ])

    expect(first?.ok).toBe(true)
    expect(second).toEqual({ ok: false, reason: 'user' })
    expect(token(tokenId)).toMatchObject({ remain_quota: 0, used_quota: 100 })
    expect(user(userId)).toMatchObject({ quota: 50 })
  })

  it('lets a lone reservation commit in its own turn, while concurrent ones wait a few turns to share one', async () => {
    const userId = createUser(1_000_000)
    const tokenId = createToken(userId, 1_000_000)
    // Counts the batches that reserved for this user: one UPDATE of users.quota per batch.
    handle.sqlite!.exec(`create table batches (id integer primary key);
      create trigger count_batches after update of quota on users when new.id = ${userId}
      begin insert into batches (id) values (null); end`)
    const batches = () => observer.prepare('select count(*) from batches').pluck().get() as number
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

    // One at a time, as one client would: each is committed before the next turn.
    for (let index = 0; index < 3; index++) {
      const reserved = ledger.reserve(tokenId, userId, 1)
      await nextTurn()
      expect(batches()).toBe(index + 1)
      expect((await reserved).ok).toBe(true)
      expect(ledger.underConcurrentLoad).toBe(false)
    }

    // After a burst, reservations made over the next few turns share one commit.
    await Promise.all(Array.from({ length: 8 }, () => ledger.reserve(tokenId, userId, 1)))
    expect(batches()).toBe(4)
    expect(ledger.underConcurrentLoad).toBe(true)
    const first = [ledger.reserve(tokenId, userId, 1), ledger.reserve(tokenId, userId, 1)]
    for (let turn = 0; turn < 3; turn++) await nextTurn()
    expect(batches()).toBe(4)
    const second = [ledger.reserve(tokenId, userId, 1), ledger.reserve(tokenId, userId, 1)]
    expect((await Promise.all([...first, ...second])).every((result) => result.ok)).toBe(true)
    expect(batches()).toBe(5)
    expect(user(userId)).toMatchObject({ quota: 1_000_000 - 15 })
  })

  it('settles and refunds batched reservations to exact balances', async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    const channelId = createChannel()
    const [cheaper, dearer, failed] = (
      await Promise.all([1, 2, 3].map(() => ledger.reserve(tokenId, userId, 100)))
    ).map(reservationOf)

    await ledger.settle(cheaper!, 60, channelId)
    await ledger.settle(dearer!, 150, channelId)
    await ledger.refund(failed!)
    // Settling or refunding twice changes nothing.
    await ledger.settle(cheaper!, 60, channelId)
    await ledger.refund(cheaper!)
    ledger.flushSettlements()

    expect(token(tokenId)).toMatchObject({ remain_quota: 790, used_quota: 210 })
    expect(user(userId)).toEqual({ quota: 790, used_quota: 210, request_count: 2 })
    expect(channelUsed(channelId)).toBe(210)
  })

  it('commits a queued settlement together with the next reservations, before them', async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 200)
    const all = reservationOf(await ledger.reserve(tokenId, userId, 200))

    // The request cost 50 of its 200: the 150 it gives back pays for the next reservation.
    await ledger.settle(all, 50, 0)
    const next = await ledger.reserve(tokenId, userId, 150)

    expect(next.ok).toBe(true)
    expect(token(tokenId)).toMatchObject({ remain_quota: 0, used_quota: 200 })
    expect(user(userId)).toEqual({ quota: 800, used_quota: 50, request_count: 1 })
  })

  it('commits queued reservations and settlements on close()', async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    const earlier = reservationOf(await ledger.reserve(tokenId, userId, 100))
    await ledger.settle(earlier, 100, 0)
    const queued = [ledger.reserve(tokenId, userId, 300), ledger.reserve(tokenId, userId, 300)]

    await ledger.close()

    expect(token(tokenId)).toMatchObject({ remain_quota: 300, used_quota: 700 })
    expect(user(userId)).toEqual({ quota: 300, used_quota: 100, request_count: 1 })
    expect((await Promise.all(queued)).every((result) => result.ok)).toBe(true)
  })

  it('refuses every reservation of a batch that fails, applies none of it, and keeps its settlements', async () => {
    const userId = createUser(1000)
    const poisonedUserId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    const poisonedTokenId = createToken(poisonedUserId, 1000)
    const earlier = reservationOf(await ledger.reserve(tokenId, userId, 100))
    handle.sqlite!.exec(
      `create trigger fail_reservation before update of quota on users when new.id = ${poisonedUserId}
       begin select raise(abort, 'simulated failure'); end`,
    )
    const before = { token: token(tokenId), user: user(userId), poisoned: token(poisonedTokenId) }

    // Not awaited: it goes in the batch below, and waits for a commit that succeeds.
    const settled = ledger.settle(earlier, 40, 0)
    const batch = [
      ledger.reserve(tokenId, userId, 100),
      ledger.reserve(poisonedTokenId, poisonedUserId, 100),
      ledger.reserve(tokenId, userId, 100),
    ]
    const outcomes = await Promise.allSettled(batch)

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toContain('simulated failure')
    expect({ token: token(tokenId), user: user(userId), poisoned: token(poisonedTokenId) }).toEqual(before)

    // The settlement was not lost with the batch: the next commit carries it.
    handle.sqlite!.exec('drop trigger fail_reservation')
    expect((await ledger.reserve(tokenId, userId, 100)).ok).toBe(true)
    await settled
    expect(token(tokenId)).toMatchObject({ remain_quota: 860, used_quota: 140 })
    expect(user(userId)).toEqual({ quota: 860, used_quota: 40, request_count: 1 })
  })

  it('refuses the whole batch when another writer holds the database past the busy timeout', async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    const writer = new SqliteDatabase(path)
    try {
      writer.exec('begin immediate')
      const outcomes = await Promise.allSettled([
        ledger.reserve(tokenId, userId, 100),
        ledger.reserve(tokenId, userId, 100),
      ])
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected'])
      expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_BUSY' })
      writer.exec('rollback')
    } finally {
      writer.close()
    }

    expect(token(tokenId)).toMatchObject({ remain_quota: 1000, used_quota: 0 })
    expect((await ledger.reserve(tokenId, userId, 100)).ok).toBe(true)
    expect(token(tokenId)).toMatchObject({ remain_quota: 900, used_quota: 100 })
  })

  it('takes turns with a writer it shares the lock with, without putting the event loop to sleep', async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    // A writer on a connection of its own (as the log write thread has), holding the write lock
    // for 4 busy timeouts: a commit attempted meanwhile would sleep, then fail.
    const other = new SqliteDatabase(path)
    const writer = sharedWriter(true)
    ledger.shareWriteLockWith(writer)
    other.exec('begin immediate')
    try {
      const reserved = ledger.reserve(tokenId, userId, 100)
      const timerFiredAfter = await new Promise<number>((resolve) => {
        const started = Date.now()
        setTimeout(() => resolve(Date.now() - started), 5)
      })
      expect(timerFiredAfter).toBeLessThan(BUSY_TIMEOUT_MS)
      await sleep(4 * BUSY_TIMEOUT_MS)
      expect(token(tokenId)).toMatchObject({ remain_quota: 1000 })

      // Done writing, the writer says so, as the log writer does after each batch: the commit
      // held back meanwhile is made at once.
      other.exec('commit')
      writer.done()
      expect(token(tokenId)).toMatchObject({ remain_quota: 900, used_quota: 100 })
      expect((await reserved).ok).toBe(true)
    } finally {
      if (other.inTransaction) other.exec('rollback')
      other.close()
    }
  })

  it('commits nothing when the shared writer is done and nothing was held back', async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    const channelId = createChannel()
    const writer = sharedWriter(false)
    ledger.shareWriteLockWith(writer)
    const reservation = reservationOf(await ledger.reserve(tokenId, userId, 100))
    const settled = ledger.settle(reservation, 40, channelId)

    // The settlement waits for its own batch (the end of this turn), not for the writer's every batch.
    writer.done()
    expect(ledger.hasQueuedCharges).toBe(true)
    expect(channelUsed(channelId)).toBe(0)
    ledger.flushSettlements()
    expect(ledger.hasQueuedCharges).toBe(false)
    expect(channelUsed(channelId)).toBe(40)
    await settled
  })

  it('tells its listeners after each commit, and says whether charges are still queued', async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    const seen: boolean[] = []
    ledger.onCommitted(() => seen.push(ledger.hasQueuedCharges))
    const [first, second] = (
      await Promise.all([ledger.reserve(tokenId, userId, 100), ledger.reserve(tokenId, userId, 100)])
    ).map(reservationOf)
    expect(seen).toEqual([false])
    expect(ledger.hasQueuedCharges).toBe(false)

    const settled = ledger.settle(first!, 30, 0)
    await ledger.refund(second!)
    // A refund commits at once, and the settlement queued before it goes in the same commit.
    expect(seen).toEqual([false, false])
    await settled
    expect(seen).toEqual([false, false])
    expect(user(userId)).toEqual({ quota: 970, used_quota: 30, request_count: 1 })
  })

  it("waits for the query builder's transaction instead of joining it", async () => {
    const userId = createUser(1000)
    const tokenId = createToken(userId, 1000)
    let reserved: Promise<ReserveResult> | undefined
    const rolledBack = handle.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ display_name: 'renamed' }).where('id', '=', userId).execute()
      reserved = ledger.reserve(tokenId, userId, 100)
      await sleep(20)
      throw new Error('the builder transaction rolls back')
    })

    await expect(rolledBack).rejects.toThrow('rolls back')
    // Committed on its own, after that transaction: its rollback did not take the reservation along.
    expect((await reserved!).ok).toBe(true)
    expect(token(tokenId)).toMatchObject({ remain_quota: 900, used_quota: 100 })
    expect(user(userId)).toMatchObject({ quota: 900 })
  })
})
