import type { LoadResult } from './load-worker.ts'

/**
 * Several load runs of one target and mode (the interleaved rounds of run.ts) as one: requests and
 * seconds add up, so the rate is the whole run's; errors add up; the latency under load is the
 * median of the runs' p50 and the highest of their p99.
 */
export function combineLoads(runs: readonly LoadResult[]): LoadResult {
  if (runs.length === 0) throw new Error('no load run to combine')
  const sum = (pick: (run: LoadResult) => number) => runs.reduce((total, run) => total + pick(run), 0)
  const seconds = sum((run) => run.seconds)
  const completed = sum((run) => run.completed)
  const p50s = runs.map((run) => run.latencyP50Ms).sort((a, b) => a - b)
  return {
    seconds,
    requestsPerSecond: completed / seconds,
    completed,
    ok: sum((run) => run.ok),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    mismatches: sum((run) => run.mismatches),
    latencyP50Ms: p50s[Math.floor(p50s.length / 2)]!,
    latencyP99Ms: Math.max(...runs.map((run) => run.latencyP99Ms)),
  }
}
