import type SqliteDatabase from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { insertLogsWithTotals } from '../db/repositories/log-totals.ts'
import type { NewLog } from '../db/repositories/logs-repository.ts'
import type { LogSchema } from '../db/schema.ts'
import { SqliteWriteThread } from '../db/sqlite-write-thread.ts'
import { LOG_STATEMENTS, logBatch } from './sqlite-log-statements.ts'

/** Rows per query-builder INSERT: 200 rows of 16 columns stay far below every bound-parameter limit. */
const ROWS_PER_INSERT = 200
/**
 * Rows per transaction of the SQLite write thread. The relay's reservations wait while the thread
 * writes (about half a millisecond for 50 rows). Measured: 10 and 20 were slower, 25 to 100 the
 * same within noise, 200 a little faster at 50 connections but with a higher latency p99 at one.
 */
const ROWS_PER_SQLITE_TRANSACTION = 50
/** Rows buffered before a flush starts, when the query builder stores them (PostgreSQL, MySQL). */
const BUILDER_FLUSH_ROWS = 1000
/** How soon a flush tries again when the ledger could not commit its charges yet. */
const CHARGES_RETRY_MS = 5

/**
 * Consume logs are written in batches off the request path: one multi-row INSERT per few hundred
 * requests instead of one per request. The buffer is flushed on an interval, when it holds enough
 * rows, and on shutdown; a failed flush keeps its rows for the next attempt.
 */
export class LogWriter {
  private buffer: NewLog[] = []
  private flushing: Promise<void> | undefined
  private readonly timer: NodeJS.Timeout
  /** Stores the rows when the logs live in a SQLite file; started on the first flush. */
  private thread: SqliteWriteThread | undefined
  /** Set when the rows go through the write thread: the logs live in this SQLite file. */
  private readonly threadDatabase: SqliteDatabase.Database | undefined
  /** Buffered rows that start a flush (the interval flushes fewer). */
  private readonly flushAt: number

  constructor(
    private readonly db: Kysely<LogSchema>,
    private readonly onError: (error: unknown) => void,
    /**
     * Rows buffered before a flush starts. By default one write-thread transaction on a SQLite
     * file: the rows go while they are young, before the garbage collector has to move them to the
     * old generation (buffering 1000 there cost measurably more GC under load); otherwise 1000.
     */
    maxBuffered?: number,
    intervalMs = 500,
    /**
     * Runs before each flush: the ledger commits its queued settlements, so a log never precedes
     * its charge. False when they could not be committed yet: the flush waits and tries again.
     */
    private readonly beforeFlush: () => boolean = () => true,
    /**
     * The better-sqlite3 connection behind `db`, given only when the logs live in that very
     * database: the rows of a database file are then written by a write thread (see
     * sqlite-log-statements.ts) instead of the query builder.
     */
    sqlite?: SqliteDatabase.Database,
  ) {
    // An in-memory database cannot be opened by a second connection: the builder writes its rows.
    this.threadDatabase = sqlite && !sqlite.memory ? sqlite : undefined
    this.flushAt = maxBuffered ?? (this.threadDatabase ? ROWS_PER_SQLITE_TRANSACTION : BUILDER_FLUSH_ROWS)
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  /** True while the SQLite write thread is writing logs (see Ledger.shareWriteLockWith). */
  get writing(): boolean {
    return this.thread?.busy ?? false
  }

  write(log: NewLog): void {
    this.buffer.push(log)
    // While a flush runs, the rows wait for it: it starts the next one when it ends (see flush).
    // A flush call per row would pile up one waiting call per request under load.
    if (!this.flushing && this.buffer.length >= this.flushAt) void this.flush()
  }

  get pending(): number {
    return this.buffer.length
  }

  /** Writes everything buffered so far; concurrent callers share one flush. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.buffer.length === 0) return
    this.flushing = this.writeBuffered().then((written) => {
      this.flushing = undefined
      // Rows that came in meanwhile; after a failure they wait for the interval instead.
      if (written && this.buffer.length >= this.flushAt) void this.flush()
    })
    await this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
    if (this.buffer.length > 0) await this.flush()
    await this.thread?.close()
  }

  /** True when every row buffered at the start was written. Never rejects. */
  private async writeBuffered(): Promise<boolean> {
    if (!(await this.chargesCommitted())) return false
    const rows = this.buffer
    this.buffer = []
    return this.insert(rows)
  }

  /**
   * Has the ledger commit the charges queued so far, waiting while it cannot yet. False if that
   * failed: the logs wait for their charges (they stay buffered) rather than being written ahead
   * of them, and a timer-started flush must not crash the process.
   */
  private async chargesCommitted(): Promise<boolean> {
    try {
      while (!this.beforeFlush()) await new Promise((resolve) => setTimeout(resolve, CHARGES_RETRY_MS))
      return true
    } catch (error) {
      this.onError(error)
      return false
    }
  }

  private async insert(rows: NewLog[]): Promise<boolean> {
    let written = 0
    try {
      while (written < rows.length) {
        // Each chunk commits with its share of the daily totals (log_daily_totals), so a failed
        // chunk leaves neither behind and is retried whole.
        written += await this.insertChunk(rows, written)
      }
      return true
    } catch (error) {
      this.onError(error)
      // Keep the unwritten rows for the next flush rather than losing billed requests' logs.
      this.buffer = rows.slice(written).concat(this.buffer)
      // A write thread that died is replaced on the next flush.
      if (this.thread?.stopped) this.thread = undefined
      return false
    }
  }

  /**
   * After each write of the thread: the ledger's commits, which wait while it writes (see
   * Ledger.shareWriteLockWith), go now. A refusal here is the ledger's and reaches its requests.
   */
  private handWriteLockBack(): void {
    try {
      this.beforeFlush()
    } catch {
      // The ledger has refused the batch's reservations with this error and keeps its settlements.
    }
  }

  /** Writes the rows from `start` on, as many as one transaction takes; returns how many. */
  private async insertChunk(rows: NewLog[], start: number): Promise<number> {
    if (this.threadDatabase) {
      const chunk = rows.slice(start, start + ROWS_PER_SQLITE_TRANSACTION)
      const batch = logBatch(chunk)
      if (batch) {
        // Started on the first flush: a process that never relays never starts the thread.
        this.thread ??= new SqliteWriteThread(
          this.threadDatabase.name,
          LOG_STATEMENTS,
          this.threadDatabase.pragma('busy_timeout', { simple: true }) as number,
        )
        try {
          await this.thread.run(batch)
        } finally {
          this.handWriteLockBack()
        }
        return chunk.length
      }
    }
    const chunk = rows.slice(start, start + ROWS_PER_INSERT)
    await insertLogsWithTotals(this.db, chunk)
    return chunk.length
  }
}
