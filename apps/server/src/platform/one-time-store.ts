import { timingSafeEqual } from 'node:crypto'
import type { Redis } from 'ioredis'

/**
 * Short-lived single-use secrets (email codes, password-reset links, OAuth states): a value stored
 * under a key for a number of seconds, taken back at most once. In Redis when REDIS_CONN_STRING is
 * set, so a code mailed by one node is accepted by any other; in memory otherwise.
 */
export interface OneTimeStore {
  put(key: string, value: string, ttlSeconds: number): Promise<void>
  /** Deletes the entry and answers true when it exists, is not expired and equals `expected`. */
  consume(key: string, expected: string): Promise<boolean>
  /** Deletes the entry and returns its value when it exists and is not expired. */
  take(key: string): Promise<string | undefined>
  close(): Promise<void>
}

function sameSecret(stored: string, expected: string): boolean {
  const a = Buffer.from(stored)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export class MemoryOneTimeStore implements OneTimeStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>()
  private readonly sweeper: NodeJS.Timeout

  constructor(sweepIntervalMs = 60_000) {
    this.sweeper = setInterval(() => this.sweep(), sweepIntervalMs)
    this.sweeper.unref()
  }

  async put(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 })
  }

  async consume(key: string, expected: string): Promise<boolean> {
    const entry = this.entries.get(key)
    if (!entry || entry.expiresAt <= Date.now() || !sameSecret(entry.value, expected)) return false
    this.entries.delete(key)
    return true
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key)
    this.entries.delete(key)
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined
  }

  private sweep(): void {
    const now = Date.now()
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key)
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
  }
}

// KEYS[1] = key, ARGV[1] = expected value: deletes and returns 1 only on a match, atomically, so
// two nodes racing with the same code cannot both accept it.
const CONSUME_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0`

// GET and DEL in one step (GETDEL needs Redis 6.2).
const TAKE_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value`

export class RedisOneTimeStore implements OneTimeStore {
  constructor(private readonly redis: Redis) {}

  async put(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(`oneTime:${key}`, value, 'EX', ttlSeconds)
  }

  async consume(key: string, expected: string): Promise<boolean> {
    return (await this.redis.eval(CONSUME_SCRIPT, 1, `oneTime:${key}`, expected)) === 1
  }

  async take(key: string): Promise<string | undefined> {
    const value = await this.redis.eval(TAKE_SCRIPT, 1, `oneTime:${key}`)
    return typeof value === 'string' ? value : undefined
  }

  async close(): Promise<void> {}
}
