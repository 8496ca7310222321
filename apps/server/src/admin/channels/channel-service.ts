import { ChannelStatus } from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { announceChannels, forgetChannelFailures } from '../../channels/channel-status.ts'
import { deleteAbilitiesOfChannels, rebuildAbilities } from '../../db/repositories/abilities-repository.ts'
import {
  type ChannelPatch,
  deleteChannelsByIds,
  findChannelById,
  findChannelIdsByStatus,
  insertChannel,
  type NewChannel,
  updateChannel,
} from '../../db/repositories/channels-repository.ts'
import { notFound } from '../../http/errors.ts'

/**
 * Channel writes. Each one changes the channel and rebuilds its abilities (the routing index) in
 * one transaction, so routing never sees a channel without its abilities; then it tells every node
 * (the relay's routing index listens to BusTopic.channelChanged). Inside a transaction only `trx` is used:
 * SQLite has a single connection, which the transaction holds. The announcement never fails the
 * write: it is committed, and a node that is not told (Redis unreachable) catches up later.
 */

/** Bounded `IN (...)` lists, well below every database's parameter limit. */
const ID_CHUNK_SIZE = 500

export async function createChannels(context: AppContext, rows: readonly NewChannel[]): Promise<number[]> {
  const ids = await context.db.transaction().execute(async (trx) => {
    const created: number[] = []
    for (const row of rows) {
      const id = await insertChannel(trx, context.dialect, row)
      await rebuildAbilities(trx, {
        id,
        group: row.group ?? '',
        models: row.models ?? '',
        status: row.status ?? ChannelStatus.enabled,
        priority: row.priority ?? 0,
      })
      created.push(id)
    }
    return created
  })
  await announceChannels(context, ids)
  return ids
}

/** Applies a patch (full or status/priority/weight) and rebuilds the abilities from the result. */
export async function updateChannelById(context: AppContext, id: number, patch: ChannelPatch): Promise<void> {
  await context.db.transaction().execute(async (trx) => {
    if (Object.keys(patch).length > 0) await updateChannel(trx, id, patch)
    const channel = await findChannelById(trx, id)
    if (!channel) throw notFound('channel not found')
    await rebuildAbilities(trx, channel)
  })
  if (patch.status === ChannelStatus.enabled) await forgetChannelFailures(context, id)
  await announceChannels(context, [id])
}

export async function deleteChannelById(context: AppContext, id: number): Promise<void> {
  const deleted = await context.db.transaction().execute(async (trx) => {
    await deleteAbilitiesOfChannels(trx, [id])
    return deleteChannelsByIds(trx, [id])
  })
  if (deleted === 0) throw notFound('channel not found')
  await announceChannels(context, [id])
}

/** Deletes every manually or automatically disabled channel with its abilities; returns how many. */
export async function deleteDisabledChannels(context: AppContext): Promise<number> {
  const ids = await context.db.transaction().execute(async (trx) => {
    const disabled = await findChannelIdsByStatus(trx, [
      ChannelStatus.manuallyDisabled,
      ChannelStatus.autoDisabled,
    ])
    for (let start = 0; start < disabled.length; start += ID_CHUNK_SIZE) {
      const chunk = disabled.slice(start, start + ID_CHUNK_SIZE)
      await deleteAbilitiesOfChannels(trx, chunk)
      await deleteChannelsByIds(trx, chunk)
    }
    return disabled
  })
  await announceChannels(context, ids)
  return ids.length
}
