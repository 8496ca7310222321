import type { ServerResponse } from 'node:http'
import type { RelayMode } from '@one-api/providers'
import type { RelayCaller } from '../auth/token-auth.ts'
import type { RelayBodyFacts } from './request-body.ts'
import type { UpstreamExchange } from './upstream-exchange.ts'

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
  /** The client's response; the relay writes to it directly (see front/client-response.ts). */
  response: ServerResponse
  /** Nanoseconds spent waiting on upstreams, for the gateway-overhead metric. */
  upstreamNanos: bigint
  /** Set when the client went away before its answer was complete. */
  clientGone: boolean
  /** The upstream call in progress: cancelled when the client goes away. */
  upstreamCall?: UpstreamExchange
}

export function elapsedMilliseconds(state: RelayState): number {
  return Number((process.hrtime.bigint() - state.startedAt) / 1_000_000n)
}
