import type { Parameters } from 'fast-check'

/**
 * Property tests start from a fixed seed, so a run in CI is repeatable and a failure reproduces;
 * FAST_CHECK_SEED=<number> explores other inputs locally (a failure prints its seed and path).
 */
export const PROPERTY_SEED = Number(process.env.FAST_CHECK_SEED ?? 20_240_601)

/** fast-check's parameters for `runs` generated cases (sized to take a few seconds at most). */
export function propertyRuns<T>(runs: number): Parameters<T> {
  return { seed: PROPERTY_SEED, numRuns: runs }
}
