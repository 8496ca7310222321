import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createScratchDatabase, type ScratchDatabase, testDialects } from '../../testing/test-databases.ts'
import { type DatabaseHandle, openDatabase } from '../database.ts'
import { parseDatabaseTarget } from '../dsn.ts'
import { migrateMain } from './migrate.ts'

// A database migrated before the ledger's write sequences existed (quota_holds without them) is
// given them on upgrade: the ledger's writes on PostgreSQL and MySQL read and move them.
describe.each(testDialects())('upgrading quota_holds on %s', (dialect) => {
  let directory: string
  let scratch: ScratchDatabase
  let handle: DatabaseHandle<unknown>

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'one-api-hold-sequences-'))
    scratch = await createScratchDatabase(dialect, directory)
    handle = openDatabase<unknown>(parseDatabaseTarget(scratch.dsn, scratch.sqlitePath ?? ''), {
      poolSize: 1,
      busyTimeoutMs: 1000,
      maxLifetimeSeconds: 0,
    })
  })
  afterEach(async () => {
    await handle?.close()
    await scratch?.drop()
    rmSync(directory, { recursive: true, force: true })
  })

  it('adds the write sequences to an existing quota_holds table, keeping its rows', async () => {
    const db = handle.db as Kysely<unknown>
    await migrateMain(db, dialect)
    // Back to the schema of the migrations before: no sequences, the last migration not run.
    await sql`alter table quota_holds drop column reserve_seq`.execute(db)
    await sql`alter table quota_holds drop column settle_seq`.execute(db)
    await sql`delete from oneapi_migrations where name = '0003-quota-hold-sequences'`.execute(db)
    await sql`insert into quota_holds (node_id, token_id, user_id, amount) values ('old-node', 1, 1, 250)`.execute(
      db,
    )

    expect(await migrateMain(db, dialect)).toEqual(['0003-quota-hold-sequences'])
    const { rows } = await sql<{ amount: number; reserve_seq: number; settle_seq: number }>`
      select amount, reserve_seq, settle_seq from quota_holds where node_id = 'old-node'`.execute(db)
    expect(rows.map((row) => ({ ...row, amount: Number(row.amount) }))).toEqual([
      { amount: 250, reserve_seq: 0, settle_seq: 0 },
    ])
  })
})
