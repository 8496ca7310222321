import type { UpstreamError } from '@one-api/providers'
import type { RoutedChannel } from '../routing/routed-channel.ts'

/** Receives channel failures from the relay; the auto-disable policy lives in the implementation. */
export interface ChannelHealth {
  reportFailure(channel: RoutedChannel, error: UpstreamError): void
}
