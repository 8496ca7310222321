import { sql } from 'kysely'
import type { Dialect } from '../database.ts'

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
