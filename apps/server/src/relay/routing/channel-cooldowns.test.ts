import { describe, expect, it } from 'vitest'
import { ChannelCooldowns } from './channel-cooldowns.ts'

const SECOND = 1_000

describe('channel cool-downs', () => {
  it('cools a channel only after three failures in a row, for 5 s', () => {
    const cooldowns = new ChannelCooldowns()
    cooldowns.failed(1, 0)
    cooldowns.failed(1, 1 * SECOND)
    expect(cooldowns.isCooling(1, 1 * SECOND)).toBe(false)
    cooldowns.failed(1, 2 * SECOND)
    expect(cooldowns.isCooling(1, 2 * SECOND)).toBe(true)
    expect(cooldowns.isCooling(1, 7 * SECOND - 1)).toBe(true)
    expect(cooldowns.isCooling(1, 7 * SECOND)).toBe(false)
    expect(cooldowns.isCooling(2, 2 * SECOND)).toBe(false)
  })

  it('starts over after a success, or when failures are a minute apart', () => {
    const cooldowns = new ChannelCooldowns()
    cooldowns.failed(1, 0)
    cooldowns.failed(1, SECOND)
    cooldowns.succeeded(1)
    expect(cooldowns.empty).toBe(true)
    cooldowns.failed(1, 2 * SECOND)
    expect(cooldowns.isCooling(1, 2 * SECOND)).toBe(false)
    cooldowns.failed(1, 2 * SECOND + 61 * SECOND)
    cooldowns.failed(1, 2 * SECOND + 122 * SECOND)
    expect(cooldowns.isCooling(1, 124 * SECOND)).toBe(false)
  })

  it('doubles the cool-down of a channel that is still failing, up to 5 min, even past the minute', () => {
    const cooldowns = new ChannelCooldowns()
    let now = 0
    const cooledFor = () => {
      let end = now
      while (cooldowns.isCooling(1, end)) end += SECOND
      return (end - now) / SECOND
    }
    for (let failure = 0; failure < 3; failure++) cooldowns.failed(1, now)
    const lengths = [cooledFor()]
    for (let failure = 0; failure < 8; failure++) {
      // Picked again as soon as its cool-down ends, and failing again.
      now += lengths.at(-1)! * SECOND
      cooldowns.failed(1, now)
      lengths.push(cooledFor())
    }
    expect(lengths).toEqual([5, 10, 20, 40, 80, 160, 300, 300, 300])
  })
})
