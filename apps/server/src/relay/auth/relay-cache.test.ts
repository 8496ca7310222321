import { describe, expect, it } from 'vitest'
import { BusTopic } from '../../platform/bus-topics.ts'
import { MemoryEventBus } from '../../platform/event-bus.ts'
import { RelayCache } from './relay-cache.ts'

/** A database stand-in whose reads finish when the test says, returning the row it holds then. */
function slowDatabase(initial: Record<string, unknown>) {
  let row = initial
  const pending: Array<() => void> = []
  const query = {
    selectAll: () => query,
    select: () => query,
    where: () => query,
    executeTakeFirst: () => {
      const answer = { ...row }
      return new Promise((resolve) => pending.push(() => resolve(answer)))
    },
  }
  return {
    db: { selectFrom: () => query } as never,
    change(fields: Record<string, unknown>) {
      row = { ...row, ...fields }
    },
    finishReads() {
      for (const finish of pending.splice(0)) finish()
    },
  }
}

const TOKEN_ROW = {
  id: 1,
  user_id: 1,
  key: 'k1',
  name: 't',
  status: 1,
  expired_time: -1,
  remain_quota: 10,
  unlimited_quota: 0,
  models: '',
  subnet: '',
}
const USER_ROW = { id: 1, username: 'u', status: 1, role: 1, group: 'default' }

describe('RelayCache', () => {
  it('does not keep a token read while a change of it was announced', async () => {
    const database = slowDatabase(TOKEN_ROW)
    const bus = new MemoryEventBus()
    const cache = new RelayCache(database.db, bus, 600_000)
    const reading = cache.token('k1')
    // The token is disabled, and the change announced, while the read is under way.
    database.change({ status: 2 })
    await bus.publish(BusTopic.tokenChanged, 'k1')
    database.finishReads()
    expect((await reading)?.status).toBe(1)
    // The next request reads again instead of trusting the stale row for the TTL.
    const next = cache.token('k1')
    expect(next).toBeInstanceOf(Promise)
    database.finishReads()
    expect((await next)?.status).toBe(2)
    // Without a change in between, the row is kept and the next lookup needs no read.
    expect(cache.token('k1')).toMatchObject({ status: 2 })
  })

  it('does not keep a user read while a change of users was announced', async () => {
    const database = slowDatabase(USER_ROW)
    const bus = new MemoryEventBus()
    const cache = new RelayCache(database.db, bus, 600_000)
    const reading = cache.user(1)
    database.change({ status: 2 })
    await bus.publish(BusTopic.userChanged, '1')
    database.finishReads()
    expect((await reading)?.status).toBe(1)
    const next = cache.user(1)
    expect(next).toBeInstanceOf(Promise)
    database.finishReads()
    expect((await next)?.status).toBe(2)
    expect(cache.user(1)).toMatchObject({ status: 2 })
  })
})
