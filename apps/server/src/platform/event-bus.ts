import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { describeRedis, logConnectionState } from './redis.ts'

/**
 * Cross-node notifications ("option X changed", "token Y changed"). Handlers run on the node that
 * published at once, and on every other node when Redis carries the message.
 *
 * The payload "*" means "anything on this topic may have changed": a node whose notifications may
 * have been lost (its Redis subscriber reconnected, or another node could not publish) delivers "*"
 * to every handler of every topic, so every handler must understand it (drop everything, reload all).
 */
export interface EventBus {
  /**
   * Announces a change that is already committed. It never throws: when other nodes cannot be told
   * (Redis unreachable), a warning naming `subject` (the payload when omitted; never pass a secret
   * such as a token key as payload without a subject) is logged, and they catch up later.
   */
  publish(topic: string, payload: string, subject?: string): Promise<void>
  subscribe(topic: string, handler: (payload: string) => void): void
  close(): Promise<void>
}

export const EVERYTHING = '*'
/** How soon a node whose announcement failed on a live connection asks the others to resync. */
const RESYNC_RETRY_MS = 5_000

export class MemoryEventBus implements EventBus {
  protected readonly emitter = new EventEmitter()

  constructor() {
    this.emitter.setMaxListeners(0)
  }

  async publish(topic: string, payload: string, _subject?: string): Promise<void> {
    this.emitter.emit(topic, payload)
  }

  subscribe(topic: string, handler: (payload: string) => void): void {
    this.emitter.on(topic, handler)
  }

  /** Tells this node's handlers that anything may have changed (see EventBus). */
  protected deliverEverything(): void {
    for (const topic of this.emitter.eventNames()) this.emitter.emit(topic, EVERYTHING)
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners()
  }
}

/**
 * Pub/sub channel of a deployment. Redis pub/sub ignores the database index (SELECT), so two
 * deployments sharing one server on /7 and /8 would hear each other without it in the name.
 */
export function eventChannel(db: number | undefined): string {
  return `one-api:events:${db ?? 0}`
}

interface Message {
  from: string
  topic?: string
  payload?: string
  /** Sent by a node whose earlier announcements failed: everyone reloads everything. */
  resync?: boolean
}

export class RedisEventBus extends MemoryEventBus {
  private readonly nodeId = randomUUID()
  private readonly channel: string
  /** An announcement failed since the publisher was last ready: the others must be told to resync. */
  private announcementsLost = false
  private subscribed = false
  private closed = false
  private resyncTimer: NodeJS.Timeout | undefined

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly logger: FastifyBaseLogger,
  ) {
    super()
    this.channel = eventChannel(publisher.options.db)
  }

  static async create(publisher: Redis, logger: FastifyBaseLogger): Promise<RedisEventBus> {
    // No command timeout on the subscriber: its SUBSCRIBE may wait for as long as Redis is away.
    // No automatic resubscription either: ioredis sends it without handling its failure, so a
    // connection closed before Redis answers (a shutdown as Redis comes back, another drop) left an
    // unhandled rejection, which ends a Node process. catchUp() resubscribes instead.
    const subscriber = publisher.duplicate({ commandTimeout: undefined, autoResubscribe: false })
    logConnectionState(subscriber, 'subscriber', logger)
    const bus = new RedisEventBus(publisher, subscriber, logger)
    subscriber.on('message', (_channel: string, message: string) => bus.receive(message))
    try {
      await subscriber.subscribe(bus.channel)
    } catch (error) {
      subscriber.disconnect()
      throw error
    }
    bus.subscribed = true
    // Every 'ready' from now on is a reconnection: what was published meanwhile never reached us.
    subscriber.on('ready', () => void bus.catchUp())
    publisher.on('ready', () => void bus.requestResync())
    logger.info(
      { channel: bus.channel, target: describeRedis(publisher) },
      'listening for change notifications',
    )
    return bus
  }

  override async publish(topic: string, payload: string, subject?: string): Promise<void> {
    await super.publish(topic, payload)
    const what = { topic, subject: subject ?? payload }
    // While reconnecting, a command would wait in ioredis' offline queue for several retries before
    // failing; the change is committed, so the caller is answered at once instead.
    if (this.publisher.status !== 'ready') return this.lost(what, `Redis is ${this.publisher.status}`)
    try {
      await this.publisher.publish(this.channel, JSON.stringify({ from: this.nodeId, topic, payload }))
    } catch (error) {
      this.lost(what, error instanceof Error ? error.message : String(error))
    }
  }

  private lost(what: { topic: string; subject: string }, reason: string): void {
    this.announcementsLost = true
    // A connection that stays up while Redis does not answer (frozen, overloaded, packets dropped)
    // never becomes ready again: the other nodes are asked to resync from a timer instead.
    if (this.publisher.status === 'ready') this.retryResyncLater()
    this.logger.warn(
      { ...what, reason },
      'a committed change could not be announced to the other nodes; they pick it up when their Redis ' +
        'connection comes back, when this node reaches Redis again, or at their next SYNC_FREQUENCY reload',
    )
  }

  /** After an outage of our publisher: tells every other node to reload what it caches. */
  private async requestResync(): Promise<void> {
    if (!this.announcementsLost || this.closed) return
    this.announcementsLost = false
    try {
      await this.publisher.publish(this.channel, JSON.stringify({ from: this.nodeId, resync: true }))
    } catch {
      // Still unreachable: the next 'ready' tries again, or the timer while the connection is up.
      this.announcementsLost = true
      if (this.publisher.status === 'ready') this.retryResyncLater()
    }
  }

  private retryResyncLater(): void {
    if (this.resyncTimer || this.closed) return
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined
      void this.requestResync()
    }, RESYNC_RETRY_MS)
    this.resyncTimer.unref()
  }

  /** The subscriber reconnected: whatever was announced while it was away must be assumed changed. */
  private async catchUp(): Promise<void> {
    if (!this.subscribed || this.closed) return
    try {
      // Subscribed again before reloading, so a change made while we reload is announced to us too.
      await this.subscriber.subscribe(this.channel)
    } catch {
      return // Lost again: the next 'ready' catches up.
    }
    this.logger.info(
      { channel: this.channel },
      'change notifications resumed: reloading tokens, users, channels and options in case one was missed',
    )
    this.deliverEverything()
  }

  private receive(message: string): void {
    let parsed: Partial<Message> | null
    try {
      parsed = JSON.parse(message) as Partial<Message> | null
    } catch {
      parsed = null
    }
    // A foreign message on our channel is ignored rather than crashing the subscriber.
    if (!parsed || typeof parsed !== 'object' || parsed.from === this.nodeId) return
    if (parsed.resync === true) {
      this.logger.info(
        'another node could not announce its changes: reloading tokens, users, channels and options',
      )
      this.deliverEverything()
    } else if (typeof parsed.topic === 'string' && typeof parsed.payload === 'string') {
      this.emitter.emit(parsed.topic, parsed.payload)
    }
  }

  override async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.resyncTimer)
    await super.close()
    this.subscriber.disconnect()
  }
}
