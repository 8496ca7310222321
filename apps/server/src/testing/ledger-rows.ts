import type { Kysely } from 'kysely'
import type { MainSchema } from '../db/schema.ts'

/**
 * A user and one token of theirs, both with id `id`, for the ledger's tests: the least a
 * reservation needs (the key is made unique from the id).
 */
export async function insertUserWithToken(
  db: Kysely<MainSchema>,
  id: number,
  userQuota: number,
  tokenQuota: number,
): Promise<void> {
  await db
    .insertInto('users')
    .values({ id, username: `u${id}`, password: 'x', quota: userQuota } as never)
    .execute()
  await db
    .insertInto('tokens')
    .values({
      id,
      user_id: id,
      key: `${id}`.padStart(48, 'k'),
      name: `t${id}`,
      remain_quota: tokenQuota,
    } as never)
    .execute()
}
