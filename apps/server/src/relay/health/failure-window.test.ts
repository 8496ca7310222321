import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis } from '../../platform/redis.ts'
import { REDIS_SERVER_MISSING, RedisProcess } from '../../testing/redis-process.ts'
import { RedisFailureWindow } from './failure-window.ts'

describe.skipIf(REDIS_SERVER_MISSING)('channel failures counted in Redis', () => {
  let redis: RedisProcess
  let clients: Redis[]
  const warnings: string[] = []
  const logger = {
    warn: (_fields: unknown, message: string) => warnings.push(message),
    info: () => {},
  } as unknown as FastifyBaseLogger

  beforeAll(async () => {
    redis = await RedisProcess.start()
    clients = [
      await connectRedis(redis.url(0), undefined, logger),
      await connectRedis(redis.url(0), undefined, logger),
    ]
  })
  afterAll(async () => {
    for (const client of clients) client.disconnect()
    await redis?.stop()
  })

  it('adds up the failures of every node, within the window, and forgets them on request', async () => {
    const [first, second] = clients.map((client) => new RedisFailureWindow(client, logger))
    expect(await first!.record(7, 60)).toBe(1)
    expect(await second!.record(7, 60)).toBe(2)
    expect(await second!.record(8, 60)).toBe(1)
    // Outside a window of 0.2 s, the earlier ones no longer count.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await first!.record(7, 0.2)).toBe(1)
    await first!.forget(7)
    expect(await second!.record(7, 60)).toBe(1)
  })

  it('counts on each node alone while Redis is down, with one warning', async () => {
    const window = new RedisFailureWindow(clients[0]!, logger)
    await redis.stop()
    try {
      warnings.length = 0
      expect(await window.record(9, 60)).toBe(1)
      expect(await window.record(9, 60)).toBe(2)
      expect(warnings.filter((line) => /counted by each node alone/.test(line))).toHaveLength(1)
    } finally {
      await redis.restart()
    }
  })
})
