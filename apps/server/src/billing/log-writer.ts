import type SqliteDatabase from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { insertLogsWithTotals } from '../db/repositories/log-totals.ts'
import type { LogSchema, NewLog } from '../db/schema.ts'
import { SqliteWriteThread } from '../db/sqlite-write-thread.ts'
import type { ChargeQueue, SharedWriter } from './ledger/ledger-types.ts'
import { LOG_STATEMENTS, logBatch } from './sqlite-log-statements.ts'

/** Rows per query-builder INSERT: 200 rows of 16 columns stay far below every bound-parameter limit. */
const ROWS_PER_INSERT = 200
/**
 * Rows per transaction of the SQLite write thread under concurrent load. Each commit writes the
 * last page of the table and of each of its eight indexes whatever the row count, so larger
 * transactions cost the thread less per row. The relay's reservations wait while the thread writes,
 * hence the smaller transactions below when there is no concurrent load to amortise commits over.
 * Numbers: docs/decisions/sqlite-log-batches.md.
 */
export const ROWS_PER_SQLITE_TRANSACTION = 200
/**
 * Rows per write-thread transaction while requests come one at a time (the ledger's last commit
 * carried fewer than a few reservations): throughput is not at stake then, and a request that
 * meets a commit waits for a quarter as long.
 */
export const ROWS_PER_QUIET_SQLITE_TRANSACTION = 50
/** Rows buffered before a flush starts, when the query builder stores them (PostgreSQL, MySQL). */
const BUILDER_FLUSH_ROWS = 1000
/** How soon an explicit flush tries again when the ledger could not commit the logs' charges yet. */
const CHARGES_RETRY_MS = 5

export interface LogWriterOptions {
  /**
   * Rows buffered before a flush starts. By default one write-thread transaction on a SQLite
   * file (ROWS_PER_SQLITE_TRANSACTION, or ROWS_PER_QUIET_SQLITE_TRANSACTION when `charges` says
   * requests come one at a time): the rows go while they are young, before the garbage collector
   * has to move them to the old generation; otherwise 1000.
   */
  maxBuffered?: number
  /** How often what is buffered is flushed whatever its size. */
  intervalMs?: number
  /**
   * The ledger whose charges the logs record: a log written while charges are queued is held
   * until the ledger's next commit, so a log never precedes its charge.
   */
  charges?: ChargeQueue
  /**
   * The better-sqlite3 connection behind `db`, given only when the logs live in that very
   * database: the rows of a database file are then written by a write thread (see
   * sqlite-log-statements.ts) instead of the query builder.
   */
  sqlite?: SqliteDatabase.Database
}

/**
 * Consume logs are written in batches off the request path: one multi-row INSERT per few hundred
 * requests instead of one per request. The buffer is flushed on an interval, when it holds enough
 * rows, and on shutdown; a failed flush keeps its rows for the next attempt.
 */
export class LogWriter implements SharedWriter {
  /** Rows whose charges are committed, in the order they were written. */
  private buffer: NewLog[] = []
  /** Rows written while the ledger had charges queued: they wait for its next commit. */
  private awaitingCharges: NewLog[] = []
  private flushing: Promise<void> | undefined
  private readonly timer: NodeJS.Timeout
  /** Stores the rows when the logs live in a SQLite file; started on the first flush. */
  private thread: SqliteWriteThread | undefined
  /** Set when the rows go through the write thread: the logs live in this SQLite file. */
  private readonly threadDatabase: SqliteDatabase.Database | undefined
  /** Buffered rows that start a flush (the interval flushes fewer), when set by the options. */
  private readonly maxBuffered: number | undefined
  private readonly charges: ChargeQueue | undefined
  private readonly writeDoneListeners: Array<() => void> = []

  constructor(
    private readonly db: Kysely<LogSchema>,
    private readonly onError: (error: unknown) => void,
    options: LogWriterOptions = {},
  ) {
    const { sqlite } = options
    // An in-memory database cannot be opened by a second connection: the builder writes its rows.
    this.threadDatabase = sqlite && !sqlite.memory ? sqlite : undefined
    this.maxBuffered = options.maxBuffered
    this.charges = options.charges
    this.charges?.onCommitted(() => this.releaseAwaitingRows())
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 500)
    this.timer.unref()
  }

  /** True while the SQLite write thread is writing logs (see Ledger.shareWriteLockWith). */
  get writing(): boolean {
    return this.thread?.busy ?? false
  }

  onWriteDone(listener: () => void): void {
    this.writeDoneListeners.push(listener)
  }

  write(log: NewLog): void {
    // Behind rows that wait, so the order stays that of the writes.
    if (this.awaitingCharges.length > 0 || this.charges?.hasQueuedCharges) {
      this.awaitingCharges.push(log)
      return
    }
    this.buffer.push(log)
    this.flushIfFull()
  }

  get pending(): number {
    return this.buffer.length + this.awaitingCharges.length
  }

  /**
   * Writes everything written so far, having the ledger commit the charges some of it waits for
   * first; concurrent callers share one flush.
   */
  async flush(): Promise<void> {
    if (!(await this.awaitedChargesCommitted())) return
    await this.writeBuffer()
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
    if (this.pending > 0) await this.flush()
    await this.thread?.close()
  }

  /** The ledger committed: every row waiting for a charge has it stored now. */
  private releaseAwaitingRows(): void {
    if (this.awaitingCharges.length === 0) return
    for (const log of this.awaitingCharges) this.buffer.push(log)
    this.awaitingCharges = []
    this.flushIfFull()
  }

  /** Buffered rows that start a flush, and the size of the batches it writes. */
  private flushAt(): number {
    if (this.maxBuffered !== undefined) return this.maxBuffered
    if (!this.threadDatabase) return BUILDER_FLUSH_ROWS
    return this.charges?.underConcurrentLoad === false
      ? ROWS_PER_QUIET_SQLITE_TRANSACTION
      : ROWS_PER_SQLITE_TRANSACTION
  }

  private flushIfFull(): void {
    // While a flush runs, the rows wait for it: it starts the next one when it ends (see
    // writeBuffer). A flush call per row would pile up one waiting call per request under load.
    if (!this.flushing && this.buffer.length >= this.flushAt()) void this.writeBuffer('whole batches')
  }

  /**
   * Writes the rows whose charges are committed; concurrent callers share one flush. A buffer
   * that filled up writes only whole batches of flushAt() rows and keeps the rest for the next:
   * rows released together by a ledger commit often overfill it by a few, and writing those few
   * on their own would cost a whole transaction each.
   */
  private async writeBuffer(which: 'all' | 'whole batches' = 'all'): Promise<void> {
    while (this.flushing) await this.flushing
    const count =
      which === 'all' ? this.buffer.length : this.buffer.length - (this.buffer.length % this.flushAt())
    if (count === 0) return
    const rows = count === this.buffer.length ? this.buffer : this.buffer.slice(0, count)
    this.buffer = count === this.buffer.length ? [] : this.buffer.slice(count)
    this.flushing = this.insert(rows).then((written) => {
      this.flushing = undefined
      // Rows that came in meanwhile; after a failure they wait for the interval instead.
      if (written) this.flushIfFull()
    })
    await this.flushing
  }

  /**
   * Has the ledger commit the charges that rows wait for, waiting while it cannot yet. False if
   * that failed: the rows keep waiting for their charges rather than being written ahead of
   * them, and a timer-started flush must not crash the process.
   */
  private async awaitedChargesCommitted(): Promise<boolean> {
    try {
      while (this.awaitingCharges.length > 0 && !this.charges!.flushSettlements()) {
        await new Promise((resolve) => setTimeout(resolve, CHARGES_RETRY_MS))
      }
      return true
    } catch (error) {
      this.onError(error)
      return false
    }
  }

  /** True when every row given was written. Never rejects. */
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
          // The ledger's commits held back while the thread wrote go now.
          for (const listener of this.writeDoneListeners) listener()
        }
        return chunk.length
      }
    }
    const chunk = rows.slice(start, start + ROWS_PER_INSERT)
    await insertLogsWithTotals(this.db, chunk)
    return chunk.length
  }
}
