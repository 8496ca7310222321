import { ChannelStatus } from '@one-api/contracts'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext, ChannelTests } from '../../app-context.ts'
import { applyTestResult, testChannel } from '../../relay/health/channel-tester.ts'
import { notifyRoot } from '../../relay/health/notify-root.ts'

/**
 * Tests many channels one after another in the background, at most one run per node at a time;
 * also run every CHANNEL_TEST_FREQUENCY minutes. Slow enabled channels (over the
 * ChannelDisableThreshold seconds) are disabled when automatic disabling is on.
 */
export class ChannelTestRunner implements ChannelTests {
  private running = false
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly context: AppContext,
    private readonly logger: FastifyBaseLogger,
  ) {}

  schedule(minutes: number | undefined): void {
    if (!minutes) return
    // A scheduled run tells root only when some channel failed: every few minutes otherwise.
    this.timer = setInterval(() => this.start('all', true), minutes * 60_000)
    this.timer.unref()
  }

  /**
   * Starts a run unless one is already going; returns whether it started. Root is told when it
   * ends (as one-api does), or with `onlyFailures` only when some channel failed.
   */
  start(scope: 'all' | 'disabled', onlyFailures = false): boolean {
    if (this.running) return false
    this.running = true
    void this.run(scope, onlyFailures).finally(() => {
      this.running = false
    })
    return true
  }

  get isRunning(): boolean {
    return this.running
  }

  private async run(scope: 'all' | 'disabled', onlyFailures: boolean): Promise<void> {
    const { context } = this
    let query = context.db.selectFrom('channels').selectAll()
    if (scope === 'disabled')
      query = query.where('status', 'in', [ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled])
    const rows = await query.orderBy('id').execute()
    let failed = 0
    for (const row of rows) {
      try {
        const result = await testChannel(context, row)
        if (!result.ok) failed++
        await applyTestResult(context, row, result, context.options.number('ChannelDisableThreshold'))
      } catch (error) {
        failed++
        this.logger.error({ err: error }, `testing channel #${row.id} failed`)
      }
      if (context.config.POLLING_INTERVAL > 0)
        await new Promise((resolve) => setTimeout(resolve, context.config.POLLING_INTERVAL * 1000))
    }
    if (onlyFailures && failed === 0) return
    await notifyRoot(
      context,
      this.logger,
      'Channel test finished',
      `Tested ${rows.length} channel(s); ${failed} failed`,
    )
  }

  close(): void {
    if (this.timer) clearInterval(this.timer)
  }
}
