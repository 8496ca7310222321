import { describe, expect, it } from 'vitest'
import { combineLoads } from './load-results.ts'
import type { LoadResult } from './load-worker.ts'

const run = (seconds: number, completed: number, p50: number, p99: number, non2xx = 0): LoadResult => ({
  seconds,
  requestsPerSecond: completed / seconds,
  completed,
  ok: completed - non2xx,
  non2xx,
  errors: 0,
  timeouts: 0,
  mismatches: 0,
  latencyP50Ms: p50,
  latencyP99Ms: p99,
})

describe('combineLoads', () => {
  it("gives the whole run's rate, every error, the median p50 and the worst p99", () => {
    const combined = combineLoads([run(3, 30_000, 3, 12), run(4, 20_000, 5, 30, 7), run(3, 25_000, 4, 9)])
    expect(combined).toEqual({
      seconds: 10,
      requestsPerSecond: 7_500,
      completed: 75_000,
      ok: 74_993,
      non2xx: 7,
      errors: 0,
      timeouts: 0,
      mismatches: 0,
      latencyP50Ms: 4,
      latencyP99Ms: 30,
    })
  })

  it('refuses to combine nothing', () => {
    expect(() => combineLoads([])).toThrow('no load run')
  })
})
