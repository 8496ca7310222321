import { Writable } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import pino from 'pino'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { eventually } from '../testing/eventually.ts'
import { REDIS_SERVER_MISSING, RedisProcess } from '../testing/redis-process.ts'
import { TcpCut } from '../testing/tcp-cut.ts'
import { RedisEventBus } from './event-bus.ts'
import { connectRedis } from './redis.ts'

const PASSWORD = 'hunter2-redis-password'

function capturingLogger(): { logger: FastifyBaseLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)))
      callback()
    },
  })
  return { logger: pino({ level: 'info' }, stream) as unknown as FastifyBaseLogger, lines }
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

describe.skipIf(REDIS_SERVER_MISSING)('Redis connections', () => {
  let redis: RedisProcess
  const opened: Array<{ bus?: RedisEventBus; client: Redis }> = []

  beforeAll(async () => {
    redis = await RedisProcess.start(['--requirepass', PASSWORD])
  })
  afterEach(async () => {
    for (const { bus, client } of opened.splice(0)) {
      await bus?.close()
      client.disconnect()
    }
  })
  afterAll(async () => {
    await redis?.stop()
  })

  /** A client and its event bus; the password in the URL, as REDIS_CONN_STRING may carry it. */
  async function open(db: number, logger: FastifyBaseLogger, port = redis.port) {
    const client = await connectRedis(`redis://:${PASSWORD}@127.0.0.1:${port}/${db}`, undefined, logger)
    const bus = await RedisEventBus.create(client, logger)
    opened.push({ bus, client })
    return bus
  }

  it('logs one line when the connection is lost and one when it is back, never the password', async () => {
    const unhandled = vi.spyOn(console, 'error')
    try {
      const { logger, lines } = capturingLogger()
      await open(3, logger)
      lines.length = 0
      await redis.stop()
      // Several reconnection attempts fail meanwhile (ioredis retries after 50, 100, 150 ms...).
      await sleep(1_500)
      await redis.restart()
      await eventually(() => lines.filter((line) => /restored/.test(String(line.msg))).length === 2)
      await sleep(200)
      const text = lines.map((line) => JSON.stringify(line))
      const lost = lines.filter((line) => /lost/.test(String(line.msg)))
      expect(lost.map((line) => line.redis).sort()).toEqual(['main', 'subscriber'])
      expect(lost.every((line) => line.level === 40 && line.target === `127.0.0.1:${redis.port}/3`)).toBe(
        true,
      )
      expect(
        lines
          .filter((line) => /restored/.test(String(line.msg)))
          .map((line) => line.redis)
          .sort(),
      ).toEqual(['main', 'subscriber'])
      expect(text.some((line) => line.includes(PASSWORD))).toBe(false)
      expect(unhandled.mock.calls.filter((call) => String(call[0]).includes('[ioredis]'))).toEqual([])
    } finally {
      unhandled.mockRestore()
    }
  })

  it('keeps deployments on different database indexes of one server apart', async () => {
    const { logger } = capturingLogger()
    const seventh = await open(7, logger)
    const seventhOther = await open(7, logger)
    const eighth = await open(8, logger)
    const heardBySeventh: string[] = []
    const heardByEighth: string[] = []
    seventhOther.subscribe('token-changed', (key) => heardBySeventh.push(key))
    eighth.subscribe('token-changed', (key) => heardByEighth.push(key))
    await seventh.publish('token-changed', 'abc', 'token #1')
    await eventually(() => heardBySeventh.length === 1)
    await sleep(200)
    expect(heardBySeventh).toEqual(['abc'])
    expect(heardByEighth).toEqual([])
  })

  it('can be closed as its subscriber reconnects without leaving a rejection nobody handles', async () => {
    const { logger } = capturingLogger()
    const partition = await TcpCut.start(redis.port)
    const unhandled: unknown[] = []
    const record = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', record)
    try {
      const bus = await open(6, logger, partition.port)
      const subscriber = (bus as unknown as { subscriber: Redis }).subscriber
      partition.cut()
      await eventually(() => subscriber.status === 'reconnecting')
      // The node shuts down at the moment its subscriber is back, before Redis answers the
      // resubscription: what was sent on that connection fails, and nothing may be left unhandled.
      const closed = new Promise<void>((resolve) => {
        subscriber.once('ready', () => {
          void bus.close()
          resolve()
        })
      })
      partition.restore()
      await closed
      await eventually(() => subscriber.status === 'end')
      await sleep(100)
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', record)
      await partition.close()
    }
  })

  it('answers a publish at once while cut off from Redis, and has the others catch up when back', async () => {
    const { logger, lines } = capturingLogger()
    const partition = await TcpCut.start(redis.port)
    try {
      const publisher = await open(4, logger, partition.port)
      const listener = await open(4, logger)
      const heard: string[] = []
      listener.subscribe('user-changed', (id) => heard.push(id))
      partition.cut()
      await sleep(100)
      const started = Date.now()
      await publisher.publish('user-changed', '42', 'user #42')
      expect(Date.now() - started).toBeLessThan(100)
      const warning = lines.find((line) => /could not be announced/.test(String(line.msg)))
      expect(warning).toMatchObject({ level: 40, topic: 'user-changed', subject: 'user #42' })
      partition.restore()
      // The listener never lost its connection: only the publisher's request tells it that
      // anything may have changed ("*").
      await eventually(() => heard.includes('*'))
      expect(heard).toEqual(['*'])
    } finally {
      await partition.close()
    }
  })
})
