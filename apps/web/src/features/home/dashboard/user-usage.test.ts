import { describe, expect, it } from 'vitest'
import { axisQuota } from './use-number-format.ts'
import { summariseUserUsage } from './user-usage.ts'

const NOW = Date.UTC(2026, 10, 28, 12)
const row = (Day: string, ModelName: string, Quota: number, RequestCount = 1) => ({
  Day,
  ModelName,
  RequestCount,
  Quota,
  PromptTokens: 10 * RequestCount,
  CompletionTokens: 5 * RequestCount,
})

describe('summariseUserUsage', () => {
  it('fills every day of the week with zeros and sums per day and per model', () => {
    const usage = summariseUserUsage(
      [
        row('2026-11-22', 'gpt-a', 100, 2),
        row('2026-11-28', 'gpt-a', 50),
        row('2026-11-28', 'gpt-b', 500, 3),
      ],
      NOW,
    )
    expect(usage.days.map((day) => day.day)).toEqual([
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
    ])
    expect(usage.days[0]).toMatchObject({ quota: 0, requests: 0, tokens: 0 })
    expect(usage.days[7]).toMatchObject({ quota: 550, requests: 4, tokens: 60, 'gpt-a': 50, 'gpt-b': 500 })
    expect(usage.models).toEqual([
      { model: 'gpt-b', quota: 500, requests: 3, tokens: 45 },
      { model: 'gpt-a', quota: 150, requests: 3, tokens: 45 },
    ])
    expect(usage.totals).toEqual({ quota: 650, requests: 6, tokens: 90 })
  })

  it('gives an empty week when there is no usage', () => {
    const usage = summariseUserUsage([], NOW)
    expect(usage.days).toHaveLength(8)
    expect(usage.totals).toEqual({ quota: 0, requests: 0, tokens: 0 })
  })
})

describe('axisQuota', () => {
  it('keeps two significant digits below a cent and two decimals above', () => {
    expect(axisQuota(2_100, true, 500_000)).toBe('$0.0042')
    expect(axisQuota(250_000, true, 500_000)).toBe('$0.50')
    expect(axisQuota(0, true, 500_000)).toBe('$0.00')
    expect(axisQuota(12_345, false, 500_000)).toBe('12.3k')
  })
})
