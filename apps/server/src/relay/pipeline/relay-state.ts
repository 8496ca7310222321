import type { ServerResponse } from 'node:http'
import type { ClientApi, RelayMode } from '@one-api/providers'
import type { RelayCaller } from '../auth/token-auth.ts'
import type { RelayBodyFacts } from './request-body.ts'
import type { RunningCall } from './upstream-client.ts'
import { StreamTooLong } from './upstream-exchange.ts'

/** Everything known about one relay request while it is being served. */
export interface RelayState {
  requestId: string
  startedAt: bigint
  mode: RelayMode
  path: string
  clientIp: string
  caller: RelayCaller
  facts: RelayBodyFacts
  /** The body the OpenAI-format adaptors read (a Messages request's chat translation). */
  body: Buffer
  /** The API the client called: its answers and errors are in that API's format. */
  clientApi: ClientApi
  /** The client's own request, when its API is not OpenAI's. */
  native?: { json: Record<string, unknown>; body: Buffer; jsonArrayStream?: boolean }
  contentType: string
  accept?: string
  /** The client's response; the relay writes to it directly (see front/client-response.ts). */
  response: ServerResponse
  /** Nanoseconds spent waiting on upstreams, for the gateway-overhead metric. */
  upstreamNanos: bigint
  /**
   * When the client had its whole answer (0n until then): the request's elapsed time ends there,
   * not after the charge is stored (a slow database is not the client's latency).
   */
  answeredAt: bigint
  /** Set when the client went away before its answer was complete. */
  clientGone: boolean
  /** Set with clientGone when the gateway's shutdown closed the connection, not the client. */
  cutByShutdown: boolean
  /** The upstream call in progress: cancelled when the client goes away. */
  upstreamCall?: RunningCall
}

/** What a log says of a stream whose connection closed before its end. */
export function disconnectNote(state: RelayState): string {
  return state.cutByShutdown
    ? 'cut when the gateway shut down (SHUTDOWN_TIMEOUT)'
    : 'client disconnected before the end'
}

/** What a log says of a stream the upstream side ended before its end. */
export function brokeOffNote(brokeOff: Error): string {
  return brokeOff instanceof StreamTooLong
    ? 'stream cut at its maximum duration (RELAY_MAX_STREAM_SECONDS)'
    : 'upstream stream broke off'
}

/** Nanoseconds from the request's arrival to its answer (or to now, for one not answered). */
export function elapsedNanos(state: RelayState): bigint {
  return (state.answeredAt || process.hrtime.bigint()) - state.startedAt
}

export function elapsedMilliseconds(state: RelayState): number {
  return Number(elapsedNanos(state) / 1_000_000n)
}
