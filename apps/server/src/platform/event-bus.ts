import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'

/**
 * Cross-node notifications ("option X changed", "token Y changed"). Handlers run on the node that
 * published at once, and on every other node when Redis carries the message.
 */
export interface EventBus {
  publish(topic: string, payload: string): Promise<void>
  subscribe(topic: string, handler: (payload: string) => void): void
  close(): Promise<void>
}

export class MemoryEventBus implements EventBus {
  protected readonly emitter = new EventEmitter()

  constructor() {
    this.emitter.setMaxListeners(0)
  }

  async publish(topic: string, payload: string): Promise<void> {
    this.emitter.emit(topic, payload)
  }

  subscribe(topic: string, handler: (payload: string) => void): void {
    this.emitter.on(topic, handler)
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners()
  }
}

const CHANNEL = 'one-api:events'

export class RedisEventBus extends MemoryEventBus {
  private readonly nodeId = randomUUID()

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
  ) {
    super()
  }

  static async create(publisher: Redis): Promise<RedisEventBus> {
    const subscriber = publisher.duplicate()
    const bus = new RedisEventBus(publisher, subscriber)
    subscriber.on('message', (_channel: string, message: string) => bus.receive(message))
    await subscriber.subscribe(CHANNEL)
    return bus
  }

  override async publish(topic: string, payload: string): Promise<void> {
    await super.publish(topic, payload)
    await this.publisher.publish(CHANNEL, JSON.stringify({ from: this.nodeId, topic, payload }))
  }

  private receive(message: string): void {
    try {
      const { from, topic, payload } = JSON.parse(message) as { from: string; topic: string; payload: string }
      if (from !== this.nodeId) this.emitter.emit(topic, payload)
    } catch {
      // A foreign message on our channel is ignored rather than crashing the subscriber.
    }
  }

  override async close(): Promise<void> {
    await super.close()
    this.subscriber.disconnect()
  }
}
