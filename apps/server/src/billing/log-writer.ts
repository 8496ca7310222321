import type SqliteDatabase from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { insertLogsWithTotals } from '../db/repositories/log-totals.ts'
import type { NewLog } from '../db/repositories/logs-repository.ts'
import type { LogSchema } from '../db/schema.ts'
import { prepareSqliteLogStatements, type SqliteLogStatements } from './sqlite-log-statements.ts'

/** Rows per query-builder INSERT: 200 rows of 16 columns stay far below every bound-parameter limit. */
const ROWS_PER_INSERT = 200
/**
 * Rows per prepared-statement transaction. A flush yields to waiting requests between
 * transactions, so this bounds how long a flush holds the event loop (a few milliseconds).
 */
const ROWS_PER_SQLITE_TRANSACTION = 250
/** How soon a flush looks again at a connection the query builder holds in a transaction. */
const BUSY_RETRY_MS = 10

/**
 * Consume logs are written in batches off the request path: one multi-row INSERT per few hundred
 * requests instead of one per request. The buffer is flushed on an interval, when it is full, and
 * on shutdown; a failed flush keeps its rows for the next attempt.
 */
export class LogWriter {
  private buffer: NewLog[] = []
  private flushing: Promise<void> | undefined
  private readonly timer: NodeJS.Timeout
  private statements: SqliteLogStatements | undefined

  constructor(
    private readonly db: Kysely<LogSchema>,
    private readonly onError: (error: unknown) => void,
    private readonly maxBuffered = 1000,
    intervalMs = 500,
    /** Runs before each flush: the ledger commits its queued settlements, so a log never precedes its charge. */
    private readonly beforeFlush: () => void = () => {},
    /**
     * The better-sqlite3 connection behind `db`, given only when the logs live in that very
     * database: the rows are then written with prepared statements instead of the query builder.
     */
    private readonly sqlite?: SqliteDatabase.Database,
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
    this.flushing = this.writeBuffered().finally(() => {
      this.flushing = undefined
    })
    await this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
    if (this.buffer.length > 0) await this.flush()
  }

  private async writeBuffered(): Promise<void> {
    if (this.sqlite?.inTransaction) await this.connectionFree()
    // Nothing is awaited from here to the first prepared write, so no transaction can slip between.
    try {
      this.beforeFlush()
    } catch (error) {
      // The charges could not be committed: the logs wait for them (they stay buffered) rather
      // than being written ahead of them, and a timer-started flush must not crash the process.
      this.onError(error)
      return
    }
    const rows = this.buffer
    this.buffer = []
    await this.insert(rows)
  }

  /**
   * Waits while the query builder holds the SQLite connection in a transaction: prepared writes
   * run now would join it, and commit or roll back with someone else's work.
   */
  private async connectionFree(): Promise<void> {
    while (this.sqlite?.inTransaction) await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS))
  }

  private async insert(rows: NewLog[]): Promise<void> {
    let written = 0
    try {
      while (written < rows.length) {
        if (written > 0 && this.sqlite) {
          // A backlog is written one transaction at a time, letting requests run in between.
          await new Promise((resolve) => setImmediate(resolve))
          await this.connectionFree()
        }
        // Each chunk commits with its share of the daily totals (log_daily_totals), so a failed
        // chunk leaves neither behind and is retried whole.
        written += await this.insertChunk(rows, written)
      }
    } catch (error) {
      this.onError(error)
      // Keep the unwritten rows for the next flush rather than losing billed requests' logs.
      this.buffer = rows.slice(written).concat(this.buffer)
    }
  }

  /** Writes the rows from `start` on, as many as one transaction takes; returns how many. */
  private async insertChunk(rows: NewLog[], start: number): Promise<number> {
    if (this.sqlite) {
      // Prepared here rather than in the constructor, so missing tables fail a flush, not startup.
      this.statements ??= prepareSqliteLogStatements(this.sqlite)
      const chunk = rows.slice(start, start + ROWS_PER_SQLITE_TRANSACTION)
      if (this.statements.insertWithTotals(chunk)) return chunk.length
    }
    const chunk = rows.slice(start, start + ROWS_PER_INSERT)
    await insertLogsWithTotals(this.db, chunk)
    return chunk.length
  }
}
