import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.ts'
import type { MainSchema } from '../schema.ts'

export async function readAllOptions(db: Kysely<MainSchema>): Promise<Map<string, string>> {
  const rows = await db.selectFrom('options').select(['key', 'value']).execute()
  return new Map(rows.map((row) => [row.key, row.value ?? '']))
}

export async function readOption(db: Kysely<MainSchema>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst()
  return row ? (row.value ?? '') : undefined
}

export async function writeOption(
  db: Kysely<MainSchema>,
  dialect: Dialect,
  key: string,
  value: string,
): Promise<void> {
  const insert = db.insertInto('options').values({ key, value })
  if (dialect === 'mysql') {
    await insert.onDuplicateKeyUpdate({ value }).execute()
  } else {
    await insert.onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute()
  }
}
