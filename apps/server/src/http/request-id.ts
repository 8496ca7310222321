import { randomBytes } from 'node:crypto'

export const REQUEST_ID_HEADER = 'X-Oneapi-Request-Id'

/** Request ids as one-api makes them: a timestamp and 8 random characters. */
// The random part is a per-process prefix plus a counter: unique across nodes and restarts
// without drawing random bytes for every request. The timestamp is formatted once per millisecond.
const NODE_PREFIX = randomBytes(2).toString('hex')
let sequence = 0
let stampMillisecond = 0
let stamp = ''
export function generateRequestId(): string {
  const now = Date.now()
  if (now !== stampMillisecond) {
    stampMillisecond = now
    stamp = new Date(now).toISOString().replace(/\D/g, '').slice(0, 17)
  }
  sequence = (sequence + 1) & 0xffff
  return stamp + NODE_PREFIX + sequence.toString(16).padStart(4, '0')
}
