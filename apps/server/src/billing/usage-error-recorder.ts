import type { Kysely } from 'kysely'
import { dayOf } from '../db/repositories/log-totals.ts'
import { addUsage, type UsageDelta } from '../db/repositories/usage-rollups.ts'
import type { LogSchema } from '../db/schema.ts'

/**
 * Counts failed upstream attempts into the usage tables' error_count (logs hold no row for them),
 * per day, user, model and channel, so the dashboards can show each channel's error rate. Counts
 * are buffered and added every few seconds with the same atomic upsert as the logs' usage; a
 * failed write keeps them for the next one.
 */
export class UsageErrorRecorder {
  private pending = new Map<string, UsageDelta>()
  private readonly timer: NodeJS.Timeout
  private flushing: Promise<void> | undefined

  constructor(
    private readonly db: Kysely<LogSchema>,
    private readonly onError: (error: unknown) => void,
    intervalMs = 2000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  /** One failed attempt of `userId`'s request for `model` on `channelId`, now. */
  record(userId: number, model: string, channelId: number): void {
    const day = dayOf(Math.floor(Date.now() / 1000))
    const key = `${day}\u0000${userId}\u0000${channelId}\u0000${model}`
    const delta = this.pending.get(key)
    if (delta) {
      delta.error_count += 1
      return
    }
    this.pending.set(key, {
      day,
      user_id: userId,
      model_name: model,
      channel_id: channelId,
      request_count: 0,
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      error_count: 1,
    })
  }

  /** Writes what is counted so far; concurrent callers share one write. Never rejects. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.pending.size === 0) return
    const deltas = [...this.pending.values()]
    this.pending = new Map()
    this.flushing = this.write(deltas).finally(() => {
      this.flushing = undefined
    })
    await this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  private async write(deltas: UsageDelta[]): Promise<void> {
    try {
      await this.db.transaction().execute((transaction) => addUsage(transaction, deltas))
    } catch (error) {
      this.onError(error)
      for (const delta of deltas) {
        const key = `${delta.day}\u0000${delta.user_id}\u0000${delta.channel_id}\u0000${delta.model_name}`
        const waiting = this.pending.get(key)
        if (waiting) waiting.error_count += delta.error_count
        else this.pending.set(key, delta)
      }
    }
  }
}
