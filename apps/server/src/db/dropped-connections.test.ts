import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScratchDatabase, POSTGRES_URL, type ScratchDatabase } from '../testing/test-databases.ts'
import { type DatabaseHandle, openDatabase } from './database.ts'
import { parseDatabaseTarget } from './dsn.ts'

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

// A database restart, a failover or an administrator ends the gateway's connections under load.
describe.skipIf(!POSTGRES_URL)('PostgreSQL connections ended by the server', () => {
  let directory: string
  let scratch: ScratchDatabase
  let handle: DatabaseHandle<unknown>
  let db: Kysely<unknown>
  const databaseName = () => new URL(scratch.dsn!).pathname.slice(1)

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'one-api-dropped-'))
    scratch = await createScratchDatabase('postgres', directory)
    handle = openDatabase(parseDatabaseTarget(scratch.dsn, ''), {
      poolSize: 4,
      busyTimeoutMs: 1000,
      maxLifetimeSeconds: 0,
    })
    db = handle.db
  })
  afterAll(async () => {
    await handle?.close()
    await scratch?.drop()
    rmSync(directory, { recursive: true, force: true })
  })

  it('fails the transaction that was using one, and keeps the process and the pool working', async () => {
    // A transaction between two statements: its connection is checked out of the pool, where the
    // pool's own error listener does not hear it. Its 'error' event took the whole process down.
    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx)
      await sleep(500)
      await sql`select 1`.execute(trx)
    })
    const failed = transaction.then(
      () => false,
      () => true,
    )
    await sleep(100)
    const admin = new pg.Client({ connectionString: POSTGRES_URL })
    await admin.connect()
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [databaseName()],
    )
    await admin.end()
    expect(await failed).toBe(true)
    // The next queries get fresh connections.
    const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(db)
    expect(rows).toEqual([{ answer: 42 }])
  })
})
