import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppContext } from '../../app-context.ts'
import { ChannelTestRunner } from './channel-test-runner.ts'

describe('CHANNEL_TEST_FREQUENCY', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('tests all channels every so many minutes, and never when unset', () => {
    vi.useFakeTimers()
    const logger = { error: vi.fn() } as never
    const runner = new ChannelTestRunner({} as AppContext, logger)
    const start = vi.spyOn(runner, 'start').mockReturnValue(true)
    runner.schedule(5)
    vi.advanceTimersByTime(5 * 60_000 - 1)
    expect(start).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    // Scheduled runs tell root only about failures (the second argument).
    expect(start).toHaveBeenCalledWith('all', true)
    vi.advanceTimersByTime(10 * 60_000)
    expect(start).toHaveBeenCalledTimes(3)
    runner.close()
    vi.advanceTimersByTime(60 * 60_000)
    expect(start).toHaveBeenCalledTimes(3)

    const unset = new ChannelTestRunner({} as AppContext, logger)
    const unsetStart = vi.spyOn(unset, 'start').mockReturnValue(true)
    unset.schedule(undefined)
    unset.schedule(0)
    vi.advanceTimersByTime(24 * 60 * 60_000)
    expect(unsetStart).not.toHaveBeenCalled()
  })
})
