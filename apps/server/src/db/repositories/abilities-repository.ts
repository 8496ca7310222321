import { ChannelStatus } from '@one-api/contracts'
import { splitList } from '@one-api/contracts/channel'
import type { Insertable, Kysely, Transaction } from 'kysely'
import type { AbilitiesTable, MainSchema } from '../schema.ts'

type Executor = Kysely<MainSchema> | Transaction<MainSchema>
export type AbilityRow = Insertable<AbilitiesTable>

/** The channel columns its abilities are derived from. */
export interface AbilitySource {
  id: number
  group: string
  models: string
  status: number
  priority: number
}

/** Five values per row: 100 rows stay far below SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK_SIZE = 100

/**
 * One routing row per (group x model) of a channel (one-api's abilities table). Pairs are de-duplicated
 * case-insensitively because MySQL's default collation would treat 'GPT-4' and 'gpt-4' as the same
 * primary key and fail the whole transaction.
 */
export function abilityRowsOf(channel: AbilitySource): AbilityRow[] {
  const rows: AbilityRow[] = []
  const seen = new Set<string>()
  const enabled = channel.status === ChannelStatus.enabled
  for (const group of splitList(channel.group)) {
    for (const model of splitList(channel.models)) {
      const pair = `${group.toLowerCase()}\u0000${model.toLowerCase()}`
      if (seen.has(pair)) continue
      seen.add(pair)
      rows.push({ group, model, channel_id: channel.id, enabled, priority: channel.priority })
    }
  }
  return rows
}

export async function deleteAbilitiesOfChannels(db: Executor, channelIds: readonly number[]): Promise<void> {
  if (channelIds.length === 0) return
  await db.deleteFrom('abilities').where('channel_id', 'in', channelIds).execute()
}

/** Replaces a channel's abilities; call inside the transaction that changed the channel. */
export async function rebuildAbilities(db: Executor, channel: AbilitySource): Promise<void> {
  await deleteAbilitiesOfChannels(db, [channel.id])
  const rows = abilityRowsOf(channel)
  for (let start = 0; start < rows.length; start += INSERT_CHUNK_SIZE) {
    await db
      .insertInto('abilities')
      .values(rows.slice(start, start + INSERT_CHUNK_SIZE))
      .execute()
  }
}

/**
 * The distinct models that enabled channels serve to any of `groups`, sorted in JavaScript: database
 * collations would order case and symbols differently per dialect.
 */
export async function listEnabledModelsOfGroups(db: Executor, groups: readonly string[]): Promise<string[]> {
  if (groups.length === 0) return []
  const rows = await db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', 'in', groups)
    .where('enabled', '=', true)
    .execute()
  return rows.map((row) => row.model).sort()
}

/** A model that an enabled channel serves to one of the groups asked for, with that channel. */
export interface ModelChannelRow {
  model: string
  channelId: number
  channelName: string
  channelType: number
  modelMapping: string | null
}

/** Every (model, enabled channel) pair reachable from `groups`, by model name then channel id. */
export async function listEnabledModelChannelsOfGroups(
  db: Executor,
  groups: readonly string[],
): Promise<ModelChannelRow[]> {
  if (groups.length === 0) return []
  const rows = await db
    .selectFrom('abilities')
    .innerJoin('channels', 'channels.id', 'abilities.channel_id')
    .select([
      'abilities.model as model',
      'channels.id as channelId',
      'channels.name as channelName',
      'channels.type as channelType',
      'channels.model_mapping as modelMapping',
    ])
    .distinct()
    .where('abilities.group', 'in', groups)
    .where('abilities.enabled', '=', true)
    .execute()
  return rows.sort((a, b) => (a.model === b.model ? a.channelId - b.channelId : a.model < b.model ? -1 : 1))
}
