/**
 * Latency probe process: one connection, one request at a time, each timed from send to the last
 * byte of the answer with microsecond resolution (autocannon's histogram keeps whole milliseconds,
 * too coarse for a 0.5 ms target). Input as JSON in argv[2]; prints one JSON line.
 */
import { Client } from 'undici'

export interface ProbeInput {
  url: string
  headers: Record<string, string>
  body: string
  warmupSeconds: number
  seconds: number
}

export interface ProbeResult {
  samples: number
  ok: number
  failed: number
  p50Ms: number
  p99Ms: number
  meanMs: number
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]
}

async function main() {
  const input = JSON.parse(process.argv[2] ?? '{}') as ProbeInput
  const target = new URL(input.url)
  const client = new Client(target.origin, { pipelining: 1, keepAliveTimeout: 30_000 })
  const durations: number[] = []
  let ok = 0
  let failed = 0
  const warmupEnds = performance.now() + input.warmupSeconds * 1000
  const ends = warmupEnds + input.seconds * 1000
  try {
    for (let now = performance.now(); now < ends; now = performance.now()) {
      const start = now
      let status = 0
      try {
        const response = await client.request({
          path: target.pathname,
          method: 'POST',
          headers: input.headers,
          body: input.body,
        })
        status = response.statusCode
        await response.body.text()
      } catch {
        status = 0
      }
      const elapsed = performance.now() - start
      if (start < warmupEnds) continue
      if (status >= 200 && status < 300) {
        ok++
        durations.push(elapsed)
      } else {
        failed++
      }
    }
  } finally {
    await client.close()
  }
  durations.sort((a, b) => a - b)
  const result: ProbeResult = {
    samples: durations.length,
    ok,
    failed,
    p50Ms: percentile(durations, 0.5),
    p99Ms: percentile(durations, 0.99),
    meanMs: durations.reduce((sum, value) => sum + value, 0) / Math.max(1, durations.length),
  }
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
