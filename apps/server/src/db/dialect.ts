import { type Kysely, MysqlAdapter, SqliteAdapter, sql } from 'kysely'

/** What differs between the three databases the server runs on, in one place. */
export type Dialect = 'sqlite' | 'postgres' | 'mysql'

// biome-ignore lint/suspicious/noExplicitAny: any schema; only the adapter is looked at.
type AnyKysely = Kysely<any>

/** The dialect of a handle, for code given only the handle (the log writer, the ledger, repositories). */
export const isMysql = (db: AnyKysely) => db.getExecutor().adapter instanceof MysqlAdapter
export const isSqlite = (db: AnyKysely) => db.getExecutor().adapter instanceof SqliteAdapter

/**
 * `column LIKE 'prefix%'` with `%`, `_` and the escape character matched literally. The escape
 * character is '!' because a backslash means different things in each dialect's string literals.
 * With `caseInsensitiveOn: 'postgres'` PostgreSQL uses ILIKE, matching SQLite's and MySQL's usual
 * case-insensitive LIKE; without it the match follows each database's default.
 */
export function startsWith(column: string, prefix: string, caseInsensitiveOn?: Dialect) {
  const pattern = `${prefix.replace(/[!%_]/g, (character) => `!${character}`)}%`
  const operator = caseInsensitiveOn === 'postgres' ? sql.raw('ilike') : sql.raw('like')
  return sql<boolean>`${sql.ref(column)} ${operator} ${pattern} escape '!'`
}
