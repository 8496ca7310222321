/**
 * Slow-stream holder process: opens `count` streamed requests at once and keeps them open, counting
 * how many were open (response headers received, not yet finished) at the same time. Once all are
 * open it holds them `holdSeconds` more, then hangs up on all of them (as clients do); it also hangs
 * up at `deadlineSeconds` if they never all open. The runner samples the gateway's memory meanwhile.
 * Input as JSON in argv[2]; prints one JSON line.
 */
import { Pool } from 'undici'

export interface SlowStreamsInput {
  url: string
  headers: Record<string, string>
  body: string
  count: number
  holdSeconds: number
  deadlineSeconds: number
}

export interface SlowStreamsResult {
  /** Streams that ended with [DONE] before the hang-up. */
  completed: number
  /** Streams refused, broken or ended without [DONE] before the hang-up. */
  failed: number
  maxOpen: number
  /** Milliseconds from the start until `maxOpen` streams were open together. */
  msToMaxOpen: number
  seconds: number
}

async function main() {
  const input = JSON.parse(process.argv[2] ?? '{}') as SlowStreamsInput
  const target = new URL(input.url)
  const pool = new Pool(target.origin, {
    connections: input.count,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  })
  const started = performance.now()
  let open = 0
  let maxOpen = 0
  let msToMaxOpen = 0
  let completed = 0
  let failed = 0
  const hangUp = new AbortController()
  const deadline = setTimeout(() => hangUp.abort(), input.deadlineSeconds * 1000)

  async function holdOne(): Promise<void> {
    let counted = false
    try {
      const response = await pool.request({
        path: target.pathname,
        method: 'POST',
        headers: input.headers,
        body: input.body,
        signal: hangUp.signal,
      })
      counted = true
      open++
      if (open > maxOpen) {
        maxOpen = open
        msToMaxOpen = performance.now() - started
        if (open === input.count) setTimeout(() => hangUp.abort(), input.holdSeconds * 1000)
      }
      let tail = ''
      for await (const chunk of response.body) {
        // Only the end matters (the [DONE] check): memory stays constant whatever the stream length.
        tail = (tail + chunk.toString('utf8')).slice(-64)
      }
      if (response.statusCode === 200 && tail.trimEnd().endsWith('data: [DONE]')) completed++
      else failed++
    } catch {
      if (!hangUp.signal.aborted) failed++
    } finally {
      if (counted) open--
    }
  }

  await Promise.all(Array.from({ length: input.count }, holdOne))
  clearTimeout(deadline)
  await pool.destroy()
  const result: SlowStreamsResult = {
    completed,
    failed,
    maxOpen,
    msToMaxOpen,
    seconds: (performance.now() - started) / 1000,
  }
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
