import type { UpstreamError } from '@one-api/providers'
import type { RoutedChannel } from '../routing/routed-channel.ts'

/** Channel failure accounting and the automatic status switches (see channel-health-monitor.ts). */
export interface ChannelHealth {
  reportFailure(channel: RoutedChannel, error: UpstreamError): void
  /** Sets status 3 (disabled by the program) and tells root, if the channel is still enabled. */
  disable(id: number, name: string, reason: string): Promise<void>
  /** Sets status 1 and tells root, if the program disabled the channel and it still is. */
  enable(id: number, name: string): Promise<void>
  /** The channel was enabled (by hand or by the program): failures counted before no longer count. */
  channelEnabled(id: number): Promise<void>
}
