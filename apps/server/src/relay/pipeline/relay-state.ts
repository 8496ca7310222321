import type { RelayMode } from '@one-api/providers'
import type { RelayCaller } from '../auth/token-auth.ts'
import type { RelayBodyFacts } from './request-body.ts'

/** Everything known about one relay request while it is being served. */
export interface RelayState {
  requestId: string
  startedAt: bigint
  mode: RelayMode
  path: string
  clientIp: string
  caller: RelayCaller
  facts: RelayBodyFacts
  body: Buffer
  contentType: string
  accept?: string
  /** Nanoseconds spent waiting on upstreams, for the gateway-overhead metric. */
  upstreamNanos: bigint
  /** Set when the client went away; the upstream call is cancelled through it. */
  clientGone: AbortController
}

export function elapsedMilliseconds(state: RelayState): number {
  return Number((process.hrtime.bigint() - state.startedAt) / 1_000_000n)
}
