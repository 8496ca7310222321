import { randomBytes } from 'node:crypto'
import { createConnection } from 'mysql2/promise'
import pg from 'pg'

/**
 * The databases a suite runs on: SQLite always; PostgreSQL and MySQL when TEST_POSTGRES_URL /
 * TEST_MYSQL_URL are set (CI sets them). Each test app gets a database of its own, dropped at close.
 */
export type TestDialect = 'sqlite' | 'postgres' | 'mysql'

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL
export const MYSQL_URL = process.env.TEST_MYSQL_URL
export const REDIS_URL = process.env.TEST_REDIS_URL

export function testDialects(): TestDialect[] {
  const dialects: TestDialect[] = ['sqlite']
  if (POSTGRES_URL) dialects.push('postgres')
  if (MYSQL_URL) dialects.push('mysql')
  return dialects
}

export interface ScratchDatabase {
  /** SQL_DSN for the app, or undefined for SQLite (use sqlitePath). */
  dsn?: string
  sqlitePath?: string
  drop(): Promise<void>
}

export async function createScratchDatabase(
  dialect: TestDialect,
  sqliteDirectory: string,
): Promise<ScratchDatabase> {
  const name = `oneapi_test_${randomBytes(6).toString('hex')}`
  if (dialect === 'sqlite') return { sqlitePath: `${sqliteDirectory}/${name}.db`, drop: async () => {} }
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: POSTGRES_URL })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const url = new URL(POSTGRES_URL!)
    url.pathname = `/${name}`
    return {
      dsn: url.toString(),
      drop: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL })
        await client.connect()
        await client.query(`drop database if exists ${name} with (force)`)
        await client.end()
      },
    }
  }
  const url = new URL(MYSQL_URL!)
  const connect = () =>
    createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    })
  const admin = await connect()
  await admin.query(`create database ${name} character set utf8mb4`)
  await admin.end()
  url.pathname = `/${name}`
  return {
    dsn: url.toString(),
    drop: async () => {
      const connection = await connect()
      await connection.query(`drop database if exists ${name}`)
      await connection.end()
    },
  }
}
