import type { ChannelSort } from '@one-api/contracts/channel'
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely'
import type { Dialect } from '../dialect.ts'
import type { ChannelsTable, MainSchema } from '../schema.ts'

export type ChannelRow = Selectable<ChannelsTable>
export type PublicChannelRow = Omit<ChannelRow, 'key'>
export type NewChannel = Insertable<ChannelsTable>
export type ChannelPatch = Updateable<Omit<ChannelsTable, 'id'>>
type Executor = Kysely<MainSchema> | Transaction<MainSchema>

/** Every column but `key`: lists and searches never read the secret at all. */
const PUBLIC_COLUMNS = [
  'id',
  'type',
  'status',
  'name',
  'weight',
  'created_time',
  'test_time',
  'response_time',
  'base_url',
  'other',
  'balance',
  'balance_updated_time',
  'models',
  'group',
  'used_quota',
  'model_mapping',
  'priority',
  'config',
  'system_prompt',
] as const satisfies readonly (keyof PublicChannelRow)[]

const NEWEST_FIRST: ChannelSort = { sort: 'id', order: 'desc' }

export function listChannels(
  db: Executor,
  offset: number,
  limit: number,
  { sort, order }: ChannelSort = NEWEST_FIRST,
): Promise<PublicChannelRow[]> {
  // The id breaks ties, so pages of an equal-valued column neither repeat nor skip rows.
  return db
    .selectFrom('channels')
    .select(PUBLIC_COLUMNS)
    .orderBy(sort, order)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
}

/**
 * Channels whose id equals the keyword, whose name starts with it, or whose key is it, whole (as
 * one-api matches keys): matched by its start, a key could be found out one character at a time by
 * an administrator who may not read it. Prefixes are compared with substr rather than LIKE so '%'
 * and '_' in a keyword are literal on every database without an ESCAPE clause.
 */
export function searchChannels(
  db: Executor,
  keyword: string,
  limit: number,
  { sort, order }: ChannelSort = NEWEST_FIRST,
): Promise<PublicChannelRow[]> {
  const length = [...keyword].length
  const id = /^\d{1,9}$/.test(keyword) ? Number(keyword) : undefined
  return db
    .selectFrom('channels')
    .select(PUBLIC_COLUMNS)
    .where((eb) => {
      const matches = [
        eb(eb.fn('substr', ['name', eb.val(1), eb.val(length)]), '=', keyword),
        eb('key', '=', keyword),
      ]
      if (id !== undefined) matches.push(eb('id', '=', id))
      return eb.or(matches)
    })
    .orderBy(sort, order)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

export function findChannelById(db: Executor, id: number): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findPublicChannelById(db: Executor, id: number): Promise<PublicChannelRow | undefined> {
  return db.selectFrom('channels').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst()
}

export async function insertChannel(db: Executor, dialect: Dialect, channel: NewChannel): Promise<number> {
  // PostgreSQL reports no insert id without RETURNING, and MySQL has no RETURNING.
  if (dialect === 'postgres') {
    const row = await db.insertInto('channels').values(channel).returning('id').executeTakeFirstOrThrow()
    return row.id
  }
  const result = await db.insertInto('channels').values(channel).executeTakeFirstOrThrow()
  return Number(result.insertId)
}

export async function updateChannel(db: Executor, id: number, patch: ChannelPatch): Promise<void> {
  await db.updateTable('channels').set(patch).where('id', '=', id).execute()
}

export async function deleteChannelsByIds(db: Executor, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db.deleteFrom('channels').where('id', 'in', ids).executeTakeFirst()
  return Number(result.numDeletedRows)
}

export async function findChannelIdsByStatus(db: Executor, statuses: readonly number[]): Promise<number[]> {
  const rows = await db.selectFrom('channels').select('id').where('status', 'in', statuses).execute()
  return rows.map((row) => row.id)
}
