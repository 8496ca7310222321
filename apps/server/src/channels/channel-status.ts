import { ChannelStatus } from '@one-api/contracts'
import type { AppContext } from '../app-context.ts'
import { rebuildAbilities } from '../db/repositories/abilities-repository.ts'
import { findChannelById } from '../db/repositories/channels-repository.ts'
import { BusTopic } from '../platform/bus-topics.ts'
import type { RelayServices } from '../relay/relay-services.ts'

/*
 * Channel status changes and their announcements, shared by the management routes (admin/) and the
 * relay's automatic disabling and enabling (relay/), so that neither imports the other.
 */

/** What announcing a channel change needs: the bus, and this node's routing index. */
export type AnnounceDependencies = Pick<AppContext, 'bus'> & { relay: Pick<RelayServices, 'router'> }

/** What a status change needs: the channel tables, the announcements and the failure accounting. */
export type StatusMoveDependencies = AnnounceDependencies & Pick<AppContext, 'db' | 'channelHealth'>

/**
 * Tells every node, and answers once this node routes by the change: the routing index reloads
 * shortly after an announcement (coalescing bursts), and a channel disabled through the API was
 * still picked by this node for about 20 ms after the API had answered.
 */
export async function announceChannels(context: AnnounceDependencies, ids: readonly number[]): Promise<void> {
  for (const id of ids) await context.bus.publish(BusTopic.channelChanged, String(id), `channel #${id}`)
  await context.relay.router.settled()
}

/**
 * A channel enabled again starts its failure count afresh: failures counted before (some arrive
 * after the count that disabled it was cleared) disabled a re-enabled channel after fewer than
 * CHANNEL_DISABLE_FAILURE_COUNT new ones. Its cool-down ends on every node too: it kept a channel
 * an administrator had just tested and enabled again out of use for up to 5 minutes.
 */
export async function forgetChannelFailures(
  context: Pick<AppContext, 'bus' | 'channelHealth'>,
  id: number,
): Promise<void> {
  await context.channelHealth?.channelEnabled(id)
  await context.bus.publish(BusTopic.channelHealthy, String(id), `channel #${id}`)
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
  context: StatusMoveDependencies,
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
  if (outcome === 'moved' && to === ChannelStatus.enabled) await forgetChannelFailures(context, id)
  if (outcome === 'moved') await announceChannels(context, [id])
  if (outcome === 'already-there') context.relay.router.scheduleReload()
  return outcome === 'moved'
}
