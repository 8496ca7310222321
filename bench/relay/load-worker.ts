/**
 * Load generator process: one autocannon run against one target, with the settings given as JSON in
 * argv[2]; prints one JSON line with the numbers the runner needs. Kept in its own process so the
 * generator's CPU is never counted in a server's, and a server's pauses never slow the generator.
 */
import { createRequire } from 'node:module'

export interface LoadInput {
  url: string
  headers: Record<string, string>
  body: string
  connections: number
  /** Seconds of measurement; ignored when `amount` is set. */
  duration?: number
  /** Exact number of requests to send instead of a duration... */
  amount?: number
  /** ...unless this many seconds pass first. */
  maxSeconds?: number
  warmupSeconds?: number
  /** How each answer is checked: a JSON completion or an SSE stream ending with [DONE]. */
  expect: 'json' | 'sse'
}

export interface LoadResult {
  seconds: number
  requestsPerSecond: number
  completed: number
  ok: number
  non2xx: number
  errors: number
  timeouts: number
  mismatches: number
  latencyP50Ms: number
  latencyP99Ms: number
}

interface AutocannonResult {
  duration: number
  errors: number
  timeouts: number
  mismatches: number
  non2xx: number
  '2xx': number
  latency: { p50: number; p99: number }
  requests: { total: number }
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult> & { stop(): void }

// autocannon ships no types; it is loaded through require with the small interface above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const verifiers = {
  json: (body: string) => body.includes('"choices"'),
  sse: (body: string) => body.trimEnd().endsWith('data: [DONE]'),
}

async function main() {
  const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput
  const options: Record<string, unknown> = {
    url: input.url,
    method: 'POST',
    headers: input.headers,
    body: input.body,
    connections: input.connections,
    timeout: 60,
    verifyBody: verifiers[input.expect],
  }
  if (input.amount) options.amount = input.amount
  else options.duration = input.duration ?? 10
  if (input.warmupSeconds) {
    options.warmup = { connections: input.connections, duration: input.warmupSeconds }
  }
  const run = autocannon(options)
  const cap = input.maxSeconds ? setTimeout(() => run.stop(), input.maxSeconds * 1000) : undefined
  const result = await run
  clearTimeout(cap)
  const output: LoadResult = {
    seconds: result.duration,
    requestsPerSecond: result.requests.total / result.duration,
    completed: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
  }
  process.stdout.write(`${JSON.stringify(output)}\n`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
