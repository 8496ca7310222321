import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import type { AppContext } from '../app-context.ts'
import type { RateLimiter } from '../platform/rate-limiter.ts'
import { installRateLimits } from './rate-limit.ts'

/** A limiter whose store is unreachable, as the Redis one is during an outage. */
class UnreachableLimiter implements RateLimiter {
  calls = 0
  async allow(): Promise<boolean> {
    this.calls += 1
    throw new Error('Redis is reconnecting')
  }
  async close(): Promise<void> {}
}

function appWith(limiter: RateLimiter) {
  const lines: Array<{ level: number; msg: string }> = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)))
      callback()
    },
  })
  const app = Fastify({ logger: { level: 'warn', stream } })
  const config = { DEBUG: false, GLOBAL_API_RATE_LIMIT: 5, GLOBAL_WEB_RATE_LIMIT: 5, CRITICAL_RATE_LIMIT: 5 }
  installRateLimits(app, { config, rateLimiter: limiter } as unknown as AppContext)
  app.get('/api/status', async () => ({ success: true }))
  app.get('/console', async () => 'page')
  return { app, lines }
}

describe('rate limits while the limiter is unavailable', () => {
  it('serves every request and warns once, not once per request', async () => {
    const limiter = new UnreachableLimiter()
    const { app, lines } = appWith(limiter)
    const statuses: number[] = []
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.push((await app.inject({ method: 'GET', url: '/api/status' })).statusCode)
      statuses.push((await app.inject({ method: 'GET', url: '/console' })).statusCode)
    }
    expect(statuses).toEqual(new Array(20).fill(200))
    // More requests than the limit of 5: nothing was counted, nothing refused.
    expect(limiter.calls).toBe(20)
    const warnings = lines.filter((line) => line.level === 40)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({ err: 'Redis is reconnecting' })
    expect(warnings[0].msg).toMatch(/rate limiting is unavailable/)
    await app.close()
  })
})
