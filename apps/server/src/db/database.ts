import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely'
import { createPool } from 'mysql2'
import pg from 'pg'
import type { DatabaseTarget } from './dsn.ts'
import { SqliteBooleanPlugin } from './sqlite-boolean-plugin.ts'

export type Dialect = DatabaseTarget['dialect']

export interface DatabaseHandle<Schema> {
  db: Kysely<Schema>
  dialect: Dialect
  close(): Promise<void>
}

export interface DatabaseOptions {
  poolSize: number
  busyTimeoutMs: number
  maxLifetimeSeconds: number
}

// PostgreSQL returns BIGINT and NUMERIC (SUM of BIGINT) as strings; quota values fit in a double.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10))
pg.types.setTypeParser(1700, (value) => Number.parseFloat(value))

export function openDatabase<Schema>(
  target: DatabaseTarget,
  options: DatabaseOptions,
): DatabaseHandle<Schema> {
  const plugins = target.dialect === 'sqlite' ? [new SqliteBooleanPlugin()] : []
  const db = new Kysely<Schema>({ dialect: createDialect(target, options), plugins })
  return { db, dialect: target.dialect, close: () => db.destroy() }
}

function createDialect(target: DatabaseTarget, options: DatabaseOptions) {
  if (target.dialect === 'sqlite') {
    const path = target.path === ':memory:' ? ':memory:' : resolve(target.path)
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
    const database = new SqliteDatabase(path, { timeout: options.busyTimeoutMs })
    // WAL lets readers proceed while a writer commits; NORMAL sync is safe with WAL.
    database.pragma('journal_mode = WAL')
    database.pragma('synchronous = NORMAL')
    database.pragma(`busy_timeout = ${options.busyTimeoutMs}`)
    // Memory-mapped reads roughly halve full scans of a large logs table.
    database.pragma('mmap_size = 268435456')
    return new SqliteDialect({ database })
  }
  if (target.dialect === 'postgres') {
    return new PostgresDialect({
      pool: new pg.Pool({
        connectionString: target.url,
        max: options.poolSize,
        maxLifetimeSeconds: options.maxLifetimeSeconds || undefined,
      }),
    })
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
      supportBigNumbers: true,
      bigNumberStrings: false,
      decimalNumbers: true,
      charset: 'utf8mb4',
      timezone: 'Z',
    }),
  })
}
