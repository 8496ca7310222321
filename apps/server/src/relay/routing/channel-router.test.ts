import { afterEach, describe, expect, it, vi } from 'vitest'
import { BusTopic } from '../../platform/bus-topics.ts'
import { EVERYTHING, MemoryEventBus } from '../../platform/event-bus.ts'
import { ChannelRouter } from './channel-router.ts'

/** An ability row joined with its channel, as the router reads them. */
const row = (id: number, model: string) => ({
  id,
  name: `c${id}`,
  type: 1,
  key: `k${id}`,
  status: 1,
  base_url: '',
  other: '',
  config: null,
  model_mapping: null,
  system_prompt: null,
  weight: 0,
  priority: 0,
  ability_group: 'default',
  ability_model: model,
  ability_priority: 0,
})

/** A database stand-in whose reads finish when the test says, each with the rows it is given. */
function slowDatabase() {
  const pending: Array<(rows: unknown[]) => void> = []
  let reads = 0
  const query = {
    innerJoin: () => query,
    selectAll: () => query,
    select: () => query,
    where: () => query,
    execute: () => {
      reads += 1
      return new Promise((resolve) => pending.push(resolve))
    },
  }
  return {
    db: { selectFrom: () => query } as never,
    get reads() {
      return reads
    },
    /** Finishes the read started `index`-th among those still pending. */
    finish(index: number, rows: unknown[]) {
      pending.splice(index, 1)[0]!(rows)
    },
  }
}

describe('ChannelRouter reloads', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('keeps the newer index when an older load finishes last', async () => {
    const database = slowDatabase()
    const router = new ChannelRouter(database.db, new MemoryEventBus())
    const older = router.load()
    const newer = router.load()
    database.finish(1, [row(2, 'new-model')])
    await newer
    database.finish(0, [row(1, 'old-model')])
    await older
    expect(router.hasRoute('default', 'new-model')).toBe(true)
    expect(router.hasRoute('default', 'old-model')).toBe(false)
    router.close()
  })

  it('reloads every SYNC_FREQUENCY even when no change is announced', async () => {
    vi.useFakeTimers()
    const database = slowDatabase()
    const router = new ChannelRouter(database.db, new MemoryEventBus())
    router.reloadEvery(600_000)
    await vi.advanceTimersByTimeAsync(600_000 - 1)
    expect(database.reads).toBe(0)
    await vi.advanceTimersByTimeAsync(1 + 20)
    expect(database.reads).toBe(1)
    database.finish(0, [row(3, 'later-model')])
    await vi.advanceTimersByTimeAsync(0)
    expect(router.hasRoute('default', 'later-model')).toBe(true)
    router.close()
    await vi.advanceTimersByTimeAsync(600_000 * 3)
    expect(database.reads).toBe(1)
  })

  it('ends the cool-down of a channel shown to work, and of every channel on a resync', async () => {
    const database = slowDatabase()
    const bus = new MemoryEventBus()
    const router = new ChannelRouter(database.db, bus)
    const loaded = router.load()
    database.finish(0, [row(1, 'm'), row(2, 'm')])
    await loaded
    const cool = (id: number) => {
      for (let failure = 0; failure < 3; failure++) router.reportFailure(id)
    }
    const picks = () =>
      new Set(Array.from({ length: 40 }, () => router.select('default', 'm', new Set())?.id))
    cool(1)
    expect(picks()).toEqual(new Set([2]))
    await bus.publish(BusTopic.channelHealthy, '1')
    expect(picks()).toEqual(new Set([1, 2]))
    cool(1)
    expect(picks()).toEqual(new Set([2]))
    // A resync says announcements may have been missed: one may have been a channel's recovery.
    await bus.publish(BusTopic.channelHealthy, EVERYTHING)
    expect(picks()).toEqual(new Set([1, 2]))
    router.close()
  })
})
