import { ChannelStatus } from '@one-api/contracts'
import type { UpstreamError } from '@one-api/providers'
import type { FastifyBaseLogger } from 'fastify'
import { moveChannelStatus, type StatusMoveDependencies } from '../../channels/channel-status.ts'
import type { RoutedChannel } from '../routing/routed-channel.ts'
import type { ChannelHealth } from './channel-health.ts'
import type { FailureWindow } from './failure-window.ts'
import { type NotifyDependencies, notifyRoot } from './notify-root.ts'
import { redactChannelKey } from './redact-key.ts'

/** What the monitor uses: the switch that turns it on, status changes, and telling root. */
export type HealthMonitorDependencies = StatusMoveDependencies & NotifyDependencies

/**
 * One-api's automatic disabling, made less trigger-happy: only errors that mean the
 * channel's key or account is unusable count (401, invalid key, quota gone, account deactivated —
 * not rate limits, timeouts or a bad request), and a channel is disabled only after
 * `failureCount` of them within `windowSeconds` (counted across nodes when they share Redis),
 * not on one stray error. It gets status 3 (disabled by the program), so automatic enabling may
 * later bring it back, and root is told.
 */
export class ChannelHealthMonitor implements ChannelHealth {
  constructor(
    private readonly context: HealthMonitorDependencies,
    private readonly logger: FastifyBaseLogger,
    private readonly failures: FailureWindow,
    private readonly failureCount: number,
    private readonly windowSeconds: number,
  ) {}

  reportFailure(channel: RoutedChannel, error: UpstreamError): void {
    if (!error.disableChannel || !this.context.options.boolean('AutomaticDisableChannelEnabled')) return
    void this.countFailure(channel, error)
  }

  private async countFailure(channel: RoutedChannel, error: UpstreamError): Promise<void> {
    const recent = await this.failures.record(channel.id, this.windowSeconds)
    if (recent < this.failureCount) return
    await this.failures.forget(channel.id)
    await this.disable(
      channel.id,
      channel.name,
      `${recent} failures in ${this.windowSeconds}s, last: ${redactChannelKey(error.message, channel.key)}`,
    )
  }

  async disable(id: number, name: string, reason: string): Promise<void> {
    try {
      // Only an enabled channel: one disabled meanwhile (by hand, or already by the program) stays so.
      if (!(await moveChannelStatus(this.context, id, ChannelStatus.enabled, ChannelStatus.autoDisabled)))
        return
      await notifyRoot(
        this.context,
        this.logger,
        `Channel ${name} (#${id}) has been disabled`,
        `Channel ${name} (#${id}) was disabled automatically: ${reason}`,
      )
    } catch (error) {
      this.logger.error({ err: error }, `disabling channel #${id} failed`)
    }
  }

  async channelEnabled(id: number): Promise<void> {
    await this.failures.forget(id)
  }

  async enable(id: number, name: string): Promise<void> {
    // Only a channel the program disabled: one an administrator disabled (or enabled) meanwhile is left.
    if (!(await moveChannelStatus(this.context, id, ChannelStatus.autoDisabled, ChannelStatus.enabled)))
      return
    await notifyRoot(
      this.context,
      this.logger,
      `Channel ${name} (#${id}) has been enabled`,
      `Channel ${name} (#${id}) passed its test and was enabled again`,
    )
  }
}
