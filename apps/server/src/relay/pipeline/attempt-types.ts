import type { Adaptor, ProviderDefaults, RelayRequest, UpstreamError } from '@one-api/providers'
import type { Reservation } from '../../billing/ledger/ledger-types.ts'
import type { ResolvedPricing } from '../../billing/pricing/resolve-pricing.ts'
import type { Charge, CostInput } from '../../billing/request-cost.ts'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import type { RelayState } from './relay-state.ts'

/* What one try against one channel takes and gives (relay-attempt.ts), shared with its answer readers. */

export interface AttemptInput {
  state: RelayState
  channel: RoutedChannel
  adaptor: Adaptor
  relayRequest: RelayRequest
  /** The gateway-wide provider defaults the adaptor reads (GEMINI_VERSION, ...). */
  defaults: ProviderDefaults
  cost: CostInput
  pricing: ResolvedPricing
  promptEstimate: number
  reservation: Reservation
}

/**
 * `served`: the client got an answer (billing is the caller's job), as a stream of events or not
 * (an image model may answer a stream request with JSON), all but its end: `finish` ends it, and
 * the caller calls it once the charge is stored, so that a client never holds a whole answer the
 * books could lose. `failed`: nothing was sent yet.
 */
export type AttemptOutcome =
  | { kind: 'served'; charge: Charge; notes: string[]; streamed: boolean; finish: () => void }
  | { kind: 'failed'; error: UpstreamError }

/** What the attempts of a request came to, for the answer when none served it. */
export interface Tries {
  /** Channels tried or skipped: never tried again for this request. */
  excluded: Set<number>
  lastError?: UpstreamError
  /** The channel whose failure lastError is: the final answer is counted under it. */
  lastErrorChannel: number
  /** A model a channel maps to that has no price. */
  unpriced?: string
  /** A channel of a type this gateway has no adaptor for. */
  unsupported?: RoutedChannel
  /** The channel whose retryable failure the next attempt, if one is made, moves away from. */
  movingFrom?: { channel: string; model: string }
}
