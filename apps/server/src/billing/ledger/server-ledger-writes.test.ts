import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../db/database.ts'
import { parseDatabaseTarget } from '../../db/dsn.ts'
import { migrateMain } from '../../db/migrations/migrate.ts'
import { withQuotaLessHolds } from '../../db/repositories/quota-held.ts'
import type { MainSchema } from '../../db/schema.ts'
import { insertUserWithToken } from '../../testing/ledger-rows.ts'
import { createScratchDatabase, type ScratchDatabase, testDialects } from '../../testing/test-databases.ts'
import { Ledger } from './ledger.ts'
import type { Reservation } from './ledger-types.ts'

// PostgreSQL and MySQL when configured; the suite is listed as skipped without either (an empty
// list left the file without a suite, which vitest counts as a failure).
const serverDialects = testDialects().filter((dialect) => dialect !== 'sqlite')
const listed = serverDialects.length > 0 ? serverDialects : (['postgres'] as const)

/**
 * The ledger on PostgreSQL and MySQL with many requests of one token at once, as a busy client
 * makes them: what a burst reserves, settles and refunds must come out exact, and the token's row
 * must be written once per burst, not once per request (each write holds the row locked until it
 * commits, so one write per request made a hot token's throughput one commit per request).
 */
describe.skipIf(serverDialects.length === 0).each(listed)(
  'the ledger on %s, bursts of one token',
  (dialect) => {
    let directory: string
    let scratch: ScratchDatabase
    let handle: DatabaseHandle<MainSchema>
    let db: Kysely<MainSchema>
    let ledger: Ledger

    async function setUp(userQuota: number, tokenQuota: number) {
      await insertUserWithToken(db, 1, userQuota, tokenQuota)
      for (const id of [1, 2]) {
        await db
          .insertInto('channels')
          .values({ id, type: 1, key: `key-${id}`, name: `c${id}` } as never)
          .execute()
      }
      // Counts the writes of the token's row.
      await sql`create table token_writes (n integer not null)`.execute(db)
      await sql`insert into token_writes values (0)`.execute(db)
      if (dialect === 'postgres') {
        await sql`create function count_token_write() returns trigger as $$
        begin update token_writes set n = n + 1; return new; end $$ language plpgsql`.execute(db)
        await sql`create trigger count_token_writes after update on tokens
        for each row execute function count_token_write()`.execute(db)
      } else {
        await sql`create trigger count_token_writes after update on tokens
        for each row update token_writes set n = n + 1`.execute(db)
      }
    }

    beforeEach(async () => {
      directory = mkdtempSync(join(tmpdir(), 'one-api-server-ledger-'))
      scratch = await createScratchDatabase(dialect, directory)
      handle = openDatabase<MainSchema>(parseDatabaseTarget(scratch.dsn, ''), {
        poolSize: 20,
        busyTimeoutMs: 1000,
        maxLifetimeSeconds: 0,
      })
      db = handle.db
      await migrateMain(db as unknown as Kysely<unknown>, dialect)
      ledger = new Ledger(db)
    })
    afterEach(async () => {
      await handle?.close()
      await scratch?.drop()
      rmSync(directory, { recursive: true, force: true })
    })

    const tokenWrites = async () =>
      Number((await sql<{ n: number }>`select n from token_writes`.execute(db)).rows[0]?.n)
    const state = async () => {
      const user = await db
        .selectFrom('users')
        .select(['quota', 'used_quota', 'request_count'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow()
      const token = await db
        .selectFrom('tokens')
        .select(['remain_quota', 'used_quota'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow()
      const channels = await db.selectFrom('channels').select(['id', 'used_quota']).orderBy('id').execute()
      const holds = await db.selectFrom('quota_holds').select('amount').execute()
      return {
        userQuota: Number(user.quota),
        userUsed: Number(user.used_quota),
        requests: Number(user.request_count),
        tokenRemain: Number(token.remain_quota),
        tokenUsed: Number(token.used_quota),
        channelsUsed: channels.map((channel) => Number(channel.used_quota)),
        held: holds.reduce((sum, row) => sum + Number(row.amount), 0),
      }
    }
    const granted = (results: Awaited<ReturnType<Ledger['reserve']>>[]): Reservation[] =>
      results.map((result) => {
        if (!result.ok) throw new Error(`refused: ${result.reason}`)
        return result.reservation
      })

    it('takes a burst it can pay for in one write, and settles and refunds a burst exactly in one more', async () => {
      await setUp(100_000, 50_000)
      const reservations = granted(
        await Promise.all(Array.from({ length: 50 }, () => ledger.reserve(1, 1, 100))),
      )
      expect(await tokenWrites()).toBe(1)
      expect(await state()).toEqual({
        userQuota: 95_000,
        userUsed: 0,
        requests: 0,
        tokenRemain: 45_000,
        tokenUsed: 5_000,
        channelsUsed: [0, 0],
        held: 5_000,
      })
      // 40 served (cost 60, on channels 1 and 2 in turn), 10 failed and refunded: one write.
      await Promise.all(
        reservations.map((reservation, index) =>
          index < 40 ? ledger.settle(reservation, 60, 1 + (index % 2)) : ledger.refund(reservation),
        ),
      )
      expect(await tokenWrites()).toBe(2)
      expect(await state()).toEqual({
        userQuota: 100_000 - 2_400,
        userUsed: 2_400,
        requests: 40,
        tokenRemain: 50_000 - 2_400,
        tokenUsed: 2_400,
        channelsUsed: [1_200, 1_200],
        held: 0,
      })
    })

    it("sets a busy token's balance without deadlocking its requests' writes", async () => {
      // MySQL read the holds inside the balance's update, locking every hold row after the token's
      // row, while the ledger locks its hold row first: edits of a busy token deadlocked.
      await setUp(1_000_000_000, 1_000_000_000)
      const until = Date.now() + 1_500
      const requests = async () => {
        while (Date.now() < until) {
          const reserved = await ledger.reserve(1, 1, 10)
          if (!reserved.ok) throw new Error(`refused: ${reserved.reason}`)
          await ledger.settle(reserved.reservation, 7, 1)
        }
      }
      let edits = 0
      const editor = async () => {
        while (Date.now() < until) {
          await withQuotaLessHolds(db, 'tokens', 1, 1_000_000_000, (trx, quota) =>
            trx.updateTable('tokens').set({ remain_quota: quota }).where('id', '=', 1).execute(),
          )
          edits += 1
        }
      }
      await Promise.all([...Array.from({ length: 16 }, requests), ...Array.from({ length: 4 }, editor)])
      expect(edits).toBeGreaterThan(0)
      const after = await state()
      expect(after.held).toBe(0)
      // The last edit set the balance; every request settled since cost 7.
      expect((1_000_000_000 - after.tokenRemain) % 7).toBe(0)
    })

    it('grants, in arrival order, exactly what the token can afford of a burst beyond it', async () => {
      await setUp(100_000, 350)
      const results = await Promise.all(Array.from({ length: 10 }, () => ledger.reserve(1, 1, 100)))
      expect(results.map((result) => (result.ok ? 'ok' : result.reason))).toEqual([
        'ok',
        'ok',
        'ok',
        ...Array(7).fill('token'),
      ])
      expect(await state()).toMatchObject({ userQuota: 99_700, tokenRemain: 50, tokenUsed: 300, held: 300 })
    })

    it('grants exactly what the user can afford of a burst beyond it', async () => {
      await setUp(250, 50_000)
      const results = await Promise.all(Array.from({ length: 5 }, () => ledger.reserve(1, 1, 100)))
      expect(results.map((result) => (result.ok ? 'ok' : result.reason))).toEqual([
        'ok',
        'ok',
        'user',
        'user',
        'user',
      ])
      expect(await state()).toMatchObject({ userQuota: 50, tokenRemain: 49_800, held: 200 })
    })

    it('fails every request of a write the database refuses, changes nothing, and goes on with the next', async () => {
      await setUp(100_000, 50_000)
      if (dialect === 'postgres') {
        await sql`create function refuse_user_write() returns trigger as $$
        begin raise exception 'refused by the test'; end $$ language plpgsql`.execute(db)
        await sql`create trigger refuse_user_writes before update on users
        for each row execute function refuse_user_write()`.execute(db)
      } else {
        await sql`create trigger refuse_user_writes before update on users
        for each row signal sqlstate '45000' set message_text = 'refused by the test'`.execute(db)
      }
      const refused = await Promise.allSettled(Array.from({ length: 5 }, () => ledger.reserve(1, 1, 100)))
      expect(refused.map((result) => result.status)).toEqual(Array(5).fill('rejected'))
      expect(await state()).toMatchObject({ userQuota: 100_000, tokenRemain: 50_000, tokenUsed: 0, held: 0 })
      await sql`drop trigger refuse_user_writes${sql.raw(dialect === 'postgres' ? ' on users' : '')}`.execute(
        db,
      )
      granted(await Promise.all(Array.from({ length: 5 }, () => ledger.reserve(1, 1, 100))))
      expect(await state()).toMatchObject({ userQuota: 99_500, tokenRemain: 49_500, held: 500 })
    })

    it('releases the hold of a token deleted while its requests were in flight, and charges its user what they cost', async () => {
      await setUp(100_000, 50_000)
      const [served, failed] = granted(
        await Promise.all([ledger.reserve(1, 1, 500), ledger.reserve(1, 1, 200)]),
      )
      await db.deleteFrom('tokens').where('id', '=', 1).execute()
      await ledger.settle(served!, 30, 1)
      await ledger.refund(failed!)
      const user = await db
        .selectFrom('users')
        .select(['quota', 'used_quota', 'request_count'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow()
      expect({
        quota: Number(user.quota),
        used: Number(user.used_quota),
        requests: Number(user.request_count),
      }).toEqual({
        quota: 100_000 - 30,
        used: 30,
        requests: 1,
      })
      const holds = await db.selectFrom('quota_holds').select('amount').execute()
      expect(holds.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(0)
    })

    it('settles many tokens at once across shared channels without deadlocks, to exact totals', {
      timeout: 120_000,
    }, async () => {
      await setUp(100_000, 50_000)
      const pairs = 20
      for (let id = 2; id <= pairs; id++) {
        await insertUserWithToken(db, id, 100_000, 50_000)
      }
      for (let id = 3; id <= 8; id++) {
        await db
          .insertInto('channels')
          .values({ id, type: 1, key: `key-${id}`, name: `c${id}` } as never)
          .execute()
      }
      const deadlocks = async () => {
        if (dialect !== 'postgres') return 0
        const { rows } = await sql<{ deadlocks: number }>`
        select deadlocks from pg_stat_database where datname = current_database()`.execute(db)
        return Number(rows[0]?.deadlocks)
      }
      const before = await deadlocks()
      // Six requests of each token in flight at a time, each settled on one of eight channels.
      let settled = 0
      await Promise.all(
        Array.from({ length: pairs * 6 }, async (_, worker) => {
          const id = (worker % pairs) + 1
          for (let round = 0; round < 25; round++) {
            const [reservation] = granted([await ledger.reserve(id, id, 100)])
            await ledger.settle(reservation!, 10, 1 + ((worker * 7 + round * 3) % 8))
            settled += 1
          }
        }),
      )
      const channels = await db.selectFrom('channels').select('used_quota').execute()
      expect(channels.reduce((sum, row) => sum + Number(row.used_quota), 0)).toBe(settled * 10)
      // A deadlock is detected after deadlock_timeout and retried, so only the count shows it; a
      // backend reports it when it goes idle (after a second at most).
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(await deadlocks()).toBe(before)
    })
  },
)
