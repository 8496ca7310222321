import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../../db/database.ts'
import { migrateMain } from '../../db/migrations/migrate.ts'
import type { MainSchema } from '../../db/schema.ts'
import { createScratchDatabase, POSTGRES_URL, type ScratchDatabase } from '../../testing/test-databases.ts'
import { Ledger } from './ledger.ts'

// A settlement whose transaction the database rolls back once (a deadlock) must still land.
describe.skipIf(!POSTGRES_URL)('Ledger on PostgreSQL: settlements and refunds survive a failed try', () => {
  let scratch: ScratchDatabase
  let handle: DatabaseHandle<MainSchema>
  let ledger: Ledger

  beforeAll(async () => {
    scratch = await createScratchDatabase('postgres', '')
    handle = openDatabase<MainSchema>(
      { dialect: 'postgres', url: scratch.dsn! },
      { poolSize: 2, busyTimeoutMs: 1000, maxLifetimeSeconds: 0 },
    )
    await migrateMain(handle.db as unknown as Kysely<unknown>, 'postgres')
    await sql`insert into users (id, username, password, quota, used_quota, request_count)
      values (1, 'u', 'x', 10000, 0, 0)`.execute(handle.db)
    await sql`insert into tokens (id, user_id, key, name, remain_quota, used_quota)
      values (1, 1, ${'k'.repeat(48)}, 't', 10000, 0)`.execute(handle.db)
    // Fails the next update of users once after arm(), as a deadlock would (or, after armHard(),
    // with an error that does not say it was rolled back), then lets every later one through.
    // Sequences, because they are not rolled back with the transaction the failure aborts.
    await sql`create sequence fail_once start 100`.execute(handle.db)
    await sql`create sequence fail_hard start 100`.execute(handle.db)
    await sql`
      create function fail_once() returns trigger as $$
      begin
        if nextval('fail_once') = 1 then
          raise exception 'simulated deadlock' using errcode = 'deadlock_detected';
        end if;
        if nextval('fail_hard') = 1 then
          raise exception 'simulated failure of unknown outcome';
        end if;
        return new;
      end $$ language plpgsql`.execute(handle.db)
    await sql`create trigger users_fail_once before update on users
      for each row execute function fail_once()`.execute(handle.db)
    ledger = new Ledger(handle.db)
  })
  afterAll(async () => {
    await handle?.close()
    await scratch?.drop()
  })

  const reserve = async (amount: number) => {
    const reserved = await ledger.reserve(1, 1, amount)
    if (!reserved.ok) throw new Error('refused')
    return reserved.reservation
  }
  const arm = () => sql`select setval('fail_once', 1, false)`.execute(handle.db)
  const armHard = () => sql`select setval('fail_hard', 1, false)`.execute(handle.db)
  const balances = async () => ({
    user: await handle.db
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow(),
    token: await handle.db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow(),
  })

  it('settles exactly once when the first try fails', async () => {
    const reservation = await reserve(500)
    await arm()
    await ledger.settle(reservation, 40, 0)
    await ledger.settle(reservation, 40, 0)
    expect(await balances()).toEqual({
      user: { quota: 9_960, used_quota: 40, request_count: 1 },
      token: { remain_quota: 9_960, used_quota: 40 },
    })
  })

  it('refunds when the first try fails', async () => {
    const reservation = await reserve(300)
    await arm()
    await ledger.refund(reservation)
    expect(await balances()).toEqual({
      user: { quota: 9_960, used_quota: 40, request_count: 1 },
      token: { remain_quota: 9_960, used_quota: 40 },
    })
  })

  it('tries again a failure of unknown outcome, and applies the settlement once', async () => {
    const reservation = await reserve(100)
    await armHard()
    await ledger.settle(reservation, 40, 0)
    // Two tries: the failure's sequence moved under the failed one (to 1) and under the next (to 2).
    const { rows } = await sql<{ last_value: string }>`select last_value from fail_hard`.execute(handle.db)
    expect(Number(rows[0]!.last_value)).toBe(2)
    expect(await balances()).toEqual({
      user: { quota: 9_920, used_quota: 80, request_count: 2 },
      token: { remain_quota: 9_920, used_quota: 80 },
    })
  })
})
