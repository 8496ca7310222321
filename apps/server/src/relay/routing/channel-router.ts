import { ChannelStatus } from '@one-api/contracts'
import { getAdaptor } from '@one-api/providers'
import type { Kysely } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'
import { BusTopic } from '../../platform/bus-topics.ts'
import { EVERYTHING, type EventBus } from '../../platform/event-bus.ts'
import { ChannelCooldowns } from './channel-cooldowns.ts'
import { type RoutedChannel, toRoutedChannel } from './routed-channel.ts'

interface Tier {
  priority: number
  channels: RoutedChannel[]
}

/**
 * In-memory routing index (group x model -> priority tiers of enabled channels), rebuilt from the
 * abilities table whenever a channel changes on any node. Selection takes the highest tier first,
 * then weighted random by `weight` inside it (one-api ignored the weight); channels that already
 * failed this request are excluded, and channels cooling down after repeated failures are only
 * used when nothing else is left.
 */
export class ChannelRouter {
  private index = new Map<string, Tier[]>()
  private channels = new Map<number, RoutedChannel>()
  private readonly cooldowns = new ChannelCooldowns()
  private reloadTimer: NodeJS.Timeout | undefined
  private safetyTimer: NodeJS.Timeout | undefined
  private loading: Promise<void> | undefined
  /** Numbers the loads: one that finishes after a newer one started installs nothing. */
  private loads = 0
  private closed = false

  constructor(
    private readonly db: Kysely<MainSchema>,
    bus: EventBus,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly random: () => number = Math.random,
  ) {
    bus.subscribe(BusTopic.channelChanged, () => this.scheduleReload())
    // A resync (EVERYTHING: announcements may have been missed) may hide a channel enabled again.
    bus.subscribe(BusTopic.channelHealthy, (id) =>
      id === EVERYTHING ? this.cooldowns.clear() : this.cooldowns.succeeded(Number(id)),
    )
  }

  async load(): Promise<void> {
    const load = ++this.loads
    const rows = await this.db
      .selectFrom('abilities')
      .innerJoin('channels', 'channels.id', 'abilities.channel_id')
      .selectAll('channels')
      .select([
        'abilities.group as ability_group',
        'abilities.model as ability_model',
        'abilities.priority as ability_priority',
      ])
      .where('abilities.enabled', '=', true)
      .where('channels.status', '=', ChannelStatus.enabled)
      .execute()
    const channels = new Map<number, RoutedChannel>()
    const index = new Map<string, Tier[]>()
    for (const row of rows) {
      let channel = channels.get(row.id)
      if (!channel) {
        channel = toRoutedChannel(row)
        channels.set(row.id, channel)
      }
      const key = indexKey(row.ability_group, row.ability_model)
      const tiers = index.get(key) ?? []
      const priority = Number(row.ability_priority ?? channel.priority)
      let tier = tiers.find((candidate) => candidate.priority === priority)
      if (!tier) {
        tier = { priority, channels: [] }
        tiers.push(tier)
      }
      tier.channels.push(channel)
      index.set(key, tiers)
    }
    for (const tiers of index.values()) tiers.sort((a, b) => b.priority - a.priority)
    // A change announced while this load read may be missing from its rows: the newer load has it.
    if (load !== this.loads) return
    this.index = index
    this.channels = channels
  }

  /**
   * Reloads every `periodMs` whatever is announced (SYNC_FREQUENCY): a failed reload, or a change
   * whose announcement a node missed (its Redis subscriber reconnecting), is made good then.
   */
  reloadEvery(periodMs: number): void {
    if (this.safetyTimer) clearInterval(this.safetyTimer)
    this.safetyTimer = setInterval(() => this.scheduleReload(), periodMs)
    this.safetyTimer.unref()
  }

  /** Reloads soon, coalescing bursts of changes (a batch create announces many). */
  scheduleReload(): void {
    if (this.reloadTimer || this.closed) return
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined
      const loading: Promise<void> = this.load()
        .catch((error: unknown) => {
          // The old index stays in use; the next change (or the periodic reload) tries again.
          if (!this.closed) this.onError(error)
        })
        .finally(() => {
          if (this.loading === loading) this.loading = undefined
        })
      this.loading = loading
    }, 20)
  }

  close(): void {
    this.closed = true
    if (this.reloadTimer) clearTimeout(this.reloadTimer)
    if (this.safetyTimer) clearInterval(this.safetyTimer)
    this.reloadTimer = undefined
    this.safetyTimer = undefined
  }

  /** Waits for a pending reload (tests and the channel API use it to read their own writes). */
  async settled(): Promise<void> {
    while (this.reloadTimer || this.loading) {
      await (this.loading ?? new Promise((resolve) => setTimeout(resolve, 25)))
    }
  }

  /**
   * Models with at least one enabled channel in the group that this gateway can relay to (a type
   * with an adaptor: a Proxy channel's models, say, cannot be asked for through /v1), sorted.
   */
  modelsForGroup(group: string): string[] {
    const prefix = `${group}\u0000`
    const models: string[] = []
    for (const [key, tiers] of this.index) {
      if (!key.startsWith(prefix)) continue
      if (tiers.some((tier) => tier.channels.some((channel) => getAdaptor(channel.type) !== undefined))) {
        models.push(key.slice(prefix.length))
      }
    }
    return models.sort()
  }

  /** An enabled channel that serves at least one model, from the loaded index (no database read). */
  channel(id: number): RoutedChannel | undefined {
    return this.channels.get(id)
  }

  hasRoute(group: string, model: string): boolean {
    return (this.index.get(indexKey(group, model))?.length ?? 0) > 0
  }

  select(group: string, model: string, excluded: ReadonlySet<number>): RoutedChannel | undefined {
    const tiers = this.index.get(indexKey(group, model))
    if (!tiers) return undefined
    const now = Date.now()
    let cooling: RoutedChannel[] = []
    for (const tier of tiers) {
      // A first attempt with no channel cooling down (the usual case) filters nothing: no copies.
      const available =
        excluded.size === 0 ? tier.channels : tier.channels.filter((channel) => !excluded.has(channel.id))
      const healthy = this.cooldowns.empty
        ? available
        : available.filter((channel) => !this.cooldowns.isCooling(channel.id, now))
      if (healthy.length > 0) return this.pickWeighted(healthy)
      if (cooling.length === 0) cooling = available
    }
    return cooling.length > 0 ? this.pickWeighted(cooling) : undefined
  }

  /** A retryable failure (429, 5xx, timeout); see ChannelCooldowns for when it cools the channel. */
  reportFailure(channelId: number): void {
    this.cooldowns.failed(channelId, Date.now())
  }

  reportSuccess(channelId: number): void {
    this.cooldowns.succeeded(channelId)
  }

  private pickWeighted(channels: RoutedChannel[]): RoutedChannel {
    if (channels.length === 1) return channels[0]
    let total = 0
    for (const channel of channels) total += weightOf(channel)
    let roll = this.random() * total
    for (const channel of channels) {
      roll -= weightOf(channel)
      if (roll < 0) return channel
    }
    return channels[channels.length - 1]
  }
}

/** Weight 0 counts as 1 so an unweighted channel is never starved. */
const weightOf = (channel: RoutedChannel): number => Math.max(channel.weight, 1)

function indexKey(group: string, model: string): string {
  return `${group}\u0000${model}`
}
