import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely'
import { createPool } from 'mysql2'
import pg from 'pg'
import type { Dialect } from './dialect.ts'
import type { DatabaseTarget } from './dsn.ts'
import { SqliteBooleanPlugin } from './sqlite-boolean-plugin.ts'
import { AUTOCHECKPOINT_BACKSTOP_PAGES } from './sqlite-worker.ts'
import { WalCheckpointer } from './wal-checkpointer.ts'

/** How often the background thread checkpoints the SQLite WAL. */
const CHECKPOINT_INTERVAL_MS = 200
/**
 * How long a statement waits for a PostgreSQL connection, the pool's wait and the connection's
 * set-up together (mysql2's connectTimeout is the same by default). pg waits forever unless told,
 * so a server that stopped answering hung every request; now the wait fails, and the ledger's
 * writes are tried again (write-retries.ts).
 */
export const CONNECT_TIMEOUT_MS = 10_000

export interface DatabaseHandle<Schema> {
  db: Kysely<Schema>
  dialect: Dialect
  /** The better-sqlite3 connection behind `db` on SQLite, for prepared hot-path statements. */
  sqlite?: SqliteDatabase.Database
  close(): Promise<void>
}

export interface DatabaseOptions {
  poolSize: number
  busyTimeoutMs: number
  maxLifetimeSeconds: number
  /** PostgreSQL and MySQL: CONNECT_TIMEOUT_MS unless given (tests give less). */
  connectTimeoutMs?: number
}

// PostgreSQL returns BIGINT and NUMERIC (SUM of BIGINT) as strings; quota values fit in a double.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10))
pg.types.setTypeParser(1700, (value) => Number.parseFloat(value))

export function openDatabase<Schema>(
  target: DatabaseTarget,
  options: DatabaseOptions,
): DatabaseHandle<Schema> {
  const plugins = target.dialect === 'sqlite' ? [new SqliteBooleanPlugin()] : []
  const sqlite = target.dialect === 'sqlite' ? openSqlite(target.path, options) : undefined
  const checkpointer =
    sqlite && !sqlite.memory
      ? new WalCheckpointer(sqlite.name, CHECKPOINT_INTERVAL_MS, options.busyTimeoutMs)
      : undefined
  const dialect =
    target.dialect === 'sqlite' ? new SqliteDialect({ database: sqlite! }) : createDialect(target, options)
  const db = new Kysely<Schema>({ dialect, plugins })
  return {
    db,
    dialect: target.dialect,
    sqlite,
    async close() {
      await checkpointer?.stop()
      await db.destroy()
    },
  }
}

function openSqlite(file: string, options: DatabaseOptions): SqliteDatabase.Database {
  const path = file === ':memory:' ? ':memory:' : resolve(file)
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const database = new SqliteDatabase(path, { timeout: options.busyTimeoutMs })
  // WAL lets readers proceed while a writer commits; NORMAL sync is safe with WAL.
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma(`busy_timeout = ${options.busyTimeoutMs}`)
  // Checkpoints are run by a worker thread (WalCheckpointer), not inside our commits.
  database.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_BACKSTOP_PAGES}`)
  // Memory-mapped reads roughly halve full scans of a large logs table.
  database.pragma('mmap_size = 268435456')
  return database
}

function createDialect(target: Exclude<DatabaseTarget, { dialect: 'sqlite' }>, options: DatabaseOptions) {
  if (target.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolSize,
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      maxLifetimeSeconds: options.maxLifetimeSeconds || undefined,
    })
    // A connection the server ends (a restart, an administrator, a failover) is reported as an
    // 'error' event; unheard, it takes the process down. The pool hears it for idle connections;
    // one checked out (between two statements of a transaction) has only its own listener, added
    // here. The query that uses it next fails and the pool replaces it.
    pool.on('error', () => {})
    pool.on('connect', (client) => client.on('error', () => {}))
    return new PostgresDialect({ pool })
  }
  return new MysqlDialect({
    pool: createPool({
      host: target.host || undefined,
      port: target.port || undefined,
      socketPath: target.socketPath,
      user: target.user,
      password: target.password,
      database: target.database,
      connectionLimit: options.poolSize,
      connectTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      supportBigNumbers: true,
      bigNumberStrings: false,
      decimalNumbers: true,
      charset: 'utf8mb4',
      timezone: 'Z',
    }),
  })
}
