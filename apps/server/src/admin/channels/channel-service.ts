import { ChannelStatus } from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
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
import { CHANNEL_HEALTHY } from '../../relay/routing/channel-router.ts'

/**
 * Channel writes. Each one changes the channel and rebuilds its abilities (the routing index) in
 * one transaction, so routing never sees a channel without its abilities; then it tells every node
 * (the relay's routing cache listens to 'channel-changed'). Inside a transaction only `trx` is used:
 * SQLite has a single connection, which the transaction holds. The announcement never fails the
 * write: it is committed, and a node that is not told (Redis unreachable) catches up later.
 */
export const CHANNEL_CHANGED = 'channel-changed'

/** Bounded `IN (...)` lists, well below every database's parameter limit. */
const ID_CHUNK_SIZE = 500

/**
 * Tells every node, and answers once this node routes by the change: the routing index reloads
 * shortly after an announcement (coalescing bursts), and a channel disabled through the API was
 * still picked by this node for about 20 ms after the API had answered.
 */
async function announce(context: AppContext, ids: readonly number[]): Promise<void> {
  for (const id of ids) await context.bus.publish(CHANNEL_CHANGED, String(id), `channel #${id}`)
  await context.relay.router.settled()
}

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
  await announce(context, ids)
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
  if (patch.status === ChannelStatus.enabled) await forgetFailures(context, id)
  await announce(context, [id])
}

/**
 * A channel enabled again starts its failure count afresh: failures counted before (some arrive
 * after the count that disabled it was cleared) disabled a re-enabled channel after fewer than
 * CHANNEL_DISABLE_FAILURE_COUNT new ones. Its cool-down ends on every node too: it kept a channel
 * an administrator had just tested and enabled again out of use for up to 5 minutes.
 */
async function forgetFailures(context: AppContext, id: number): Promise<void> {
  await context.channelHealth?.channelEnabled(id)
  await context.bus.publish(CHANNEL_HEALTHY, String(id), `channel #${id}`)
}

/**
 * A status change the program makes (automatic disabling and enabling): applied only while the
 * channel still has the status `from`, so a change an administrator made in the meantime (a
 * channel disabled by hand while a test of all channels ran) is never overwritten. False when the
 * channel had another status, or is gone. When another node already made the same move, this node
 * may have missed its announcement (Redis was unreachable) and still route to the channel: it
 * reloads its routing index.
 */
export async function moveChannelStatus(
  context: AppContext,
  id: number,
  from: number,
  to: number,
): Promise<boolean> {
  const outcome = await context.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('channels')
      .set({ status: to })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 1) {
      const channel = await findChannelById(trx, id)
      if (channel) await rebuildAbilities(trx, channel)
      return 'moved'
    }
    const current = await findChannelById(trx, id)
    return current?.status === to ? 'already-there' : 'left'
  })
  if (outcome === 'moved' && to === ChannelStatus.enabled) await forgetFailures(context, id)
  if (outcome === 'moved') await announce(context, [id])
  if (outcome === 'already-there') context.relay.router.scheduleReload()
  return outcome === 'moved'
}

export async function deleteChannelById(context: AppContext, id: number): Promise<void> {
  const deleted = await context.db.transaction().execute(async (trx) => {
    await deleteAbilitiesOfChannels(trx, [id])
    return deleteChannelsByIds(trx, [id])
  })
  if (deleted === 0) throw notFound('channel not found')
  await announce(context, [id])
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
  await announce(context, ids)
  return ids.length
}
