import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'

/**
 * Recent key or account failures per channel, for automatic disabling: `record` adds one and
 * answers how many fell within the last `windowSeconds`.
 */
export interface FailureWindow {
  record(channelId: number, windowSeconds: number): Promise<number>
  /** Starts the channel's count afresh (it was disabled). */
  forget(channelId: number): Promise<void>
}

/** Counts of this process alone. */
export class MemoryFailureWindow implements FailureWindow {
  private readonly failures = new Map<number, number[]>()

  async record(channelId: number, windowSeconds: number): Promise<number> {
    const now = Date.now()
    const recent = (this.failures.get(channelId) ?? []).filter((time) => now - time < windowSeconds * 1000)
    recent.push(now)
    this.failures.set(channelId, recent)
    return recent.length
  }

  async forget(channelId: number): Promise<void> {
    this.failures.delete(channelId)
  }
}

// KEYS[1] = key; ARGV = now (ms), window (ms), member. Atomic on the server, so every node adds to
// one count per channel.
const RECORD_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[1]) - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('ZCARD', KEYS[1])`

/**
 * Counts shared by every node through Redis. Behind a load balancer each node sees only its share
 * of a channel's failures: counted per node, a deployment of three nodes needed about three times
 * `CHANNEL_DISABLE_FAILURE_COUNT` failures before a dead key was disabled. While Redis cannot
 * answer, each node counts its own (a warning says so, at most once a minute).
 */
export class RedisFailureWindow implements FailureWindow {
  private readonly local = new MemoryFailureWindow()
  private sequence = 0
  private warnedAt = 0

  constructor(
    private readonly redis: Redis,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async record(channelId: number, windowSeconds: number): Promise<number> {
    const now = Date.now()
    const member = `${now}-${process.pid}-${this.sequence++}-${Math.random()}`
    try {
      if (this.redis.status !== 'ready') throw new Error(`Redis is ${this.redis.status}`)
      const count = await this.redis.eval(
        RECORD_SCRIPT,
        1,
        keyOf(channelId),
        now,
        windowSeconds * 1000,
        member,
      )
      return Number(count)
    } catch (error) {
      this.warn(error)
      return this.local.record(channelId, windowSeconds)
    }
  }

  async forget(channelId: number): Promise<void> {
    await this.local.forget(channelId)
    try {
      if (this.redis.status === 'ready') await this.redis.del(keyOf(channelId))
    } catch (error) {
      this.warn(error)
    }
  }

  private warn(error: unknown): void {
    if (Date.now() - this.warnedAt < 60_000) return
    this.warnedAt = Date.now()
    this.logger.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      'channel failures are counted by each node alone while Redis does not answer',
    )
  }
}

const keyOf = (channelId: number) => `channelFailures:${channelId}`
