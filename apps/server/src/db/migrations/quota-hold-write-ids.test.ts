import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createScratchDatabase, type ScratchDatabase, testDialects } from '../../testing/test-databases.ts'
import { type DatabaseHandle, openDatabase } from '../database.ts'
import { parseDatabaseTarget } from '../dsn.ts'
import { migrateMain } from './migrate.ts'

// A database migrated before the ledger's write ids existed (quota_holds without them) is given
// them on upgrade: the ledger's writes on PostgreSQL and MySQL read and record them.
describe.each(testDialects())('upgrading quota_holds on %s', (dialect) => {
  let directory: string
  let scratch: ScratchDatabase
  let handle: DatabaseHandle<unknown>

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'one-api-hold-write-ids-'))
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

  it('adds the write ids to an existing quota_holds table, keeping its rows', async () => {
    const db = handle.db as Kysely<unknown>
    await migrateMain(db, dialect)
    // Back to the schema of the migrations before: no write ids, it and the later ones not run
    // (re-running the later ones changes nothing: each only adds what is missing).
    await sql`alter table quota_holds drop column reserve_write`.execute(db)
    await sql`alter table quota_holds drop column settle_write`.execute(db)
    await sql`delete from oneapi_migrations where name >= '0003-quota-hold-write-ids'`.execute(db)
    await sql`insert into quota_holds (node_id, token_id, user_id, amount) values ('old-node', 1, 1, 250)`.execute(
      db,
    )

    expect((await migrateMain(db, dialect))[0]).toBe('0003-quota-hold-write-ids')
    const { rows } = await sql<{ amount: number; reserve_write: number; settle_write: number }>`
      select amount, reserve_write, settle_write from quota_holds where node_id = 'old-node'`.execute(db)
    expect(rows.map((row) => ({ ...row, amount: Number(row.amount) }))).toEqual([
      { amount: 250, reserve_write: 0, settle_write: 0 },
    ])
  })
})
