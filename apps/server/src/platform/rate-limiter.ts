import type { Redis } from 'ioredis'

/**
 * Sliding-log rate limiting, as one-api does it: a request is allowed when fewer than `limit`
 * requests were seen for the key within the last `windowSeconds`.
 */
export interface RateLimiter {
  allow(key: string, limit: number, windowSeconds: number): Promise<boolean>
  close(): Promise<void>
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>()
  private readonly sweeper: NodeJS.Timeout

  constructor(sweepIntervalMs = 60_000) {
    this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs)
    this.sweeper.unref()
  }

  async allow(key: string, limit: number, windowSeconds: number): Promise<boolean> {
    const now = Date.now()
    const windowStart = now - windowSeconds * 1000
    let log = this.logs.get(key)
    if (!log) {
      log = []
      this.logs.set(key, log)
    }
    while (log.length > 0 && log[0] <= windowStart) log.shift()
    if (log.length >= limit) return false
    log.push(now)
    return true
  }

  private sweep(): void {
    const now = Date.now()
    // Entries older than the longest window in use (20 min) can always go.
    for (const [key, log] of this.logs) {
      if (log.length === 0 || log[log.length - 1] < now - 20 * 60_000) this.logs.delete(key)
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
  }
}

// KEYS[1] = key; ARGV = now(ms), window(ms), limit, member. Atomic on the Redis server, so every
// node shares one count per client.
const SLIDING_LOG_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`

export class RedisRateLimiter implements RateLimiter {
  private sequence = 0

  constructor(private readonly redis: Redis) {}

  async allow(key: string, limit: number, windowSeconds: number): Promise<boolean> {
    // While reconnecting, a command would wait in ioredis' offline queue for several retries: fail
    // at once instead, so the caller's decision (the HTTP limits fail open) costs no latency.
    if (this.redis.status !== 'ready') throw new Error(`Redis is ${this.redis.status}`)
    const now = Date.now()
    const member = `${now}-${process.pid}-${this.sequence++}-${Math.random()}`
    const allowed = await this.redis.eval(
      SLIDING_LOG_SCRIPT,
      1,
      `rateLimit:${key}`,
      now,
      windowSeconds * 1000,
      limit,
      member,
    )
    return allowed === 1
  }

  async close(): Promise<void> {}
}
