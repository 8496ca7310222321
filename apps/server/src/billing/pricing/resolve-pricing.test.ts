import { describe, expect, it } from 'vitest'
import { resolveGroupRatio } from './group-ratio.ts'
import { resolvePricing } from './resolve-pricing.ts'

describe('resolveGroupRatio', () => {
  it('reads the group from the live GroupRatio option', () => {
    expect(resolveGroupRatio('default', { default: 1, vip: 0.8 })).toBe(1)
    expect(resolveGroupRatio('vip', { default: 1, vip: 0.8 })).toBe(0.8)
    expect(resolveGroupRatio('free', { free: 0 })).toBe(0)
  })

  it('charges list price (1) for a group the option does not list or prices badly', () => {
    expect(resolveGroupRatio('partners', { default: 1 })).toBe(1)
    expect(resolveGroupRatio('default')).toBe(1)
    expect(resolveGroupRatio('broken', { broken: -2 })).toBe(1)
    expect(resolveGroupRatio('constructor', {})).toBe(1)
  })
})

describe('resolvePricing', () => {
  it('combines the three ratios for a priced model', () => {
    expect(resolvePricing('gpt-4o', 1, 'vip', { groupRatios: { vip: 0.5 } })).toEqual({
      modelRatio: 2.5,
      completionRatio: 4,
      groupRatio: 0.5,
    })
  })

  it('returns undefined for an unpriced model, and prices it once the administrator does', () => {
    expect(resolvePricing('my-model', 1, 'default', {})).toBeUndefined()
    expect(
      resolvePricing('my-model', 1, 'default', {
        modelRatios: { 'my-model': 1.5 },
        completionRatios: { 'my-model': 2 },
      }),
    ).toEqual({ modelRatio: 1.5, completionRatio: 2, groupRatio: 1 })
  })

  it('answers repeated requests from what it resolved, and sees a changed table at once', () => {
    const groups = { default: 1, vip: 0.5 }
    const before = { 'my-model': 1.5 }
    const first = resolvePricing('my-model', 1, 'vip', { modelRatios: before, groupRatios: groups })
    expect(resolvePricing('my-model', 1, 'vip', { modelRatios: before, groupRatios: groups })).toBe(first)
    // Other channel types and groups are resolved on their own.
    expect(resolvePricing('my-model', 1, 'default', { modelRatios: before, groupRatios: groups })).toEqual({
      modelRatio: 1.5,
      completionRatio: 1,
      groupRatio: 1,
    })
    expect(
      resolvePricing('my-model(7)', 7, 'vip', { modelRatios: before, groupRatios: groups }),
    ).toBeUndefined()
    // The options store hands out a new table when an administrator changes a price.
    const after = { 'my-model': 3 }
    expect(resolvePricing('my-model', 1, 'vip', { modelRatios: after, groupRatios: groups })).toEqual({
      modelRatio: 3,
      completionRatio: 1,
      groupRatio: 0.5,
    })
    expect(
      resolvePricing('my-model', 1, 'vip', { modelRatios: after, groupRatios: { vip: 2 } })?.groupRatio,
    ).toBe(2)
  })
})
