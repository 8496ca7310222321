import type { Kysely } from 'kysely'
import { insertLogsWithTotals } from '../db/repositories/log-totals.ts'
import type { NewLog } from '../db/repositories/logs-repository.ts'
import type { LogSchema } from '../db/schema.ts'

const ROWS_PER_INSERT = 200

/**
 * Consume logs are written in batches off the request path: one multi-row INSERT per few hundred
 * requests instead of one per request. The buffer is flushed on an interval, when it is full, and
 * on shutdown; a failed flush keeps its rows for the next attempt.
 */
export class LogWriter {
  private buffer: NewLog[] = []
  private flushing: Promise<void> | undefined
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly db: Kysely<LogSchema>,
    private readonly onError: (error: unknown) => void,
    private readonly maxBuffered = 1000,
    intervalMs = 500,
    /** Runs before each flush: the ledger commits its queued settlements, so a log never precedes its charge. */
    private readonly beforeFlush: () => void = () => {},
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  write(log: NewLog): void {
    this.buffer.push(log)
    if (this.buffer.length >= this.maxBuffered) void this.flush()
  }

  get pending(): number {
    return this.buffer.length
  }

  /** Writes everything buffered so far; concurrent callers share one flush. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.buffer.length === 0) return
    this.beforeFlush()
    const rows = this.buffer
    this.buffer = []
    this.flushing = this.insert(rows).finally(() => {
      this.flushing = undefined
    })
    await this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
    if (this.buffer.length > 0) await this.flush()
  }

  private async insert(rows: NewLog[]): Promise<void> {
    let written = 0
    try {
      while (written < rows.length) {
        const chunk = rows.slice(written, written + ROWS_PER_INSERT)
        // Each chunk commits with its share of the daily totals (log_daily_totals), so a failed
        // chunk leaves neither behind and is retried whole.
        await insertLogsWithTotals(this.db, chunk)
        written += chunk.length
      }
    } catch (error) {
      this.onError(error)
      // Keep the unwritten rows for the next flush rather than losing billed requests' logs.
      this.buffer = rows.slice(written).concat(this.buffer)
    }
  }
}
