import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = new URL('../', import.meta.url).pathname
const server = join(root, 'apps/server/src')

/** A call of Kysely's query builder or its sql`` template: these belong in db/repositories/. */
const QUERY_BUILDER = /\.(selectFrom|insertInto|updateTable|deleteFrom)\s*\(|\bsql\s*(<[^>]*>)?\s*`/

function routeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return routeFiles(path)
    return entry.name.endsWith('-routes.ts') ? [path] : []
  })
}

function usesQueryBuilder(source: string): boolean {
  return QUERY_BUILDER.test(source)
}

describe('route files hold no SQL', () => {
  it('no route file calls the query builder: every query lives in db/repositories/', () => {
    const offenders = routeFiles(server)
      .filter((file) => usesQueryBuilder(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file))
      .sort()
    expect(offenders).toEqual([])
  })

  it('recognises each form of a direct query and ignores repository calls', () => {
    expect(usesQueryBuilder("await db.selectFrom('users').selectAll().execute()")).toBe(true)
    expect(usesQueryBuilder("context.db\n  .updateTable('channels')")).toBe(true)
    expect(usesQueryBuilder("db.insertInto('logs').values(row)")).toBe(true)
    expect(usesQueryBuilder("db.deleteFrom('tokens')")).toBe(true)
    expect(usesQueryBuilder('sql`select 1`.execute(db)')).toBe(true)
    expect(usesQueryBuilder('sql<number>`count(*)`')).toBe(true)
    expect(usesQueryBuilder('await updateChannel(context.db, id, patch)')).toBe(false)
    expect(usesQueryBuilder('const sqlite = options.sqlPath')).toBe(false)
  })
})
