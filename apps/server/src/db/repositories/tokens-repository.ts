import type { Insertable, Kysely, Transaction } from 'kysely'
import type { MainSchema, TokensTable } from '../schema.ts'

type Executor = Kysely<MainSchema> | Transaction<MainSchema>

export async function insertToken(db: Executor, token: Insertable<TokensTable>): Promise<void> {
  await db.insertInto('tokens').values(token).execute()
}
