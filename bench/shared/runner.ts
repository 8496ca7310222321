/**
 * What the query benchmarks (bench/log-queries, bench/dashboard) share: the database with the log
 * data set (1,000,000 logs, 100,000 users, 100,000 tokens; seed.ts), the timing of a case, and the
 * report file.
 *
 * BENCH_SQL_DSN=<an empty PostgreSQL or MySQL database> runs a benchmark there instead of a
 * temporary SQLite database (the database is filled, not dropped). BENCH_LOG_ROWS changes the log
 * count. BENCH_SQLITE_PATH keeps the SQLite database at that path and reuses it on the next run
 * (no reload).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import pino from 'pino'
import type { AppContext } from '../../apps/server/src/app-context.ts'
import { createRuntime } from '../../apps/server/src/bootstrap.ts'
import { loadConfig } from '../../apps/server/src/config/env.ts'
import { seed } from '../log-queries/seed.ts'

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
export const format = (milliseconds: number) => milliseconds.toFixed(1)

export interface BenchDatabase {
  context: AppContext
  dialect: string
  /** Seconds to fill the database (or to find it filled) and refresh its statistics. */
  loadSeconds: number
}

/**
 * Starts the product's runtime (real migrations) on the benchmark database, as it is, runs `body`
 * and closes everything.
 */
export async function withBenchRuntime(name: string, body: (context: AppContext) => Promise<void>) {
  const directory = mkdtempSync(join(tmpdir(), `one-api-bench-${name}-`))
  const config = loadConfig({
    SQLITE_PATH: process.env.BENCH_SQLITE_PATH ?? join(directory, 'bench.db'),
    SQL_DSN: process.env.BENCH_SQL_DSN,
    INITIAL_ROOT_PASSWORD: 'bench-password-1',
    SESSION_SECRET: 'bench',
  })
  const runtime = await createRuntime(config, pino({ level: 'silent' }))
  try {
    await body(runtime.context)
  } finally {
    await runtime.close()
    rmSync(directory, { recursive: true, force: true })
  }
}

/**
 * Opens the benchmark database, fills it on first use through the product's writes, refreshes the
 * planner statistics of `tables` as a live system has them (autovacuum, InnoDB persistent stats),
 * checkpoints SQLite's WAL as a running server does, runs `body` and closes everything.
 */
export function withBenchDatabase(
  name: string,
  tables: readonly string[],
  body: (database: BenchDatabase) => Promise<void>,
): Promise<void> {
  return withBenchRuntime(name, async (context) => {
    const { db, logDb, logDialect } = context
    const loadStart = performance.now()
    const loaded = await logDb.selectFrom('logs').select('id').limit(1).executeTakeFirst()
    if (!loaded) await seed(db, logDb)
    for (const table of tables) {
      if (logDialect === 'postgres') await sql`vacuum analyze ${sql.table(table)}`.execute(logDb)
      if (logDialect === 'mysql') await sql`analyze table ${sql.table(table)}`.execute(logDb)
    }
    if (logDialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(logDb)
    const loadSeconds = (performance.now() - loadStart) / 1000
    await body({ context, dialect: logDialect, loadSeconds })
  })
}

export interface Timing {
  name: string
  rows: number
  median: number
  min: number
  max: number
}

/** Runs `run` `runs` times; the median, fastest and slowest time in ms and the rows of the last run. */
export async function timeRuns(name: string, runs: number, run: () => Promise<number>): Promise<Timing> {
  const timings: number[] = []
  let rows = 0
  for (let index = 0; index < runs; index++) {
    const start = performance.now()
    rows = await run()
    timings.push(performance.now() - start)
  }
  return { name, rows, median: median(timings), min: Math.min(...timings), max: Math.max(...timings) }
}

/** Writes bench/results/<name>.md (<name>-<dialect>.md on PostgreSQL and MySQL). */
export function writeResult(name: string, dialect: string, lines: readonly string[]): void {
  const here = dirname(fileURLToPath(import.meta.url))
  const suffix = dialect === 'sqlite' ? '' : `-${dialect}`
  const path = join(here, '..', 'results', `${name}${suffix}.md`)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, lines.join('\n'))
  console.log(`wrote ${path}`)
}
