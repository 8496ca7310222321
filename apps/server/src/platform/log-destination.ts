import SonicBoom from 'sonic-boom'

/** Log bytes waiting for a slow reader before new lines are dropped. */
export const LOG_BUFFER_LIMIT_BYTES = 4 * 1024 * 1024
/** After a write failed, lines are dropped for this long before the destination is tried again. */
export const LOG_RETRY_AFTER_MS = 1000

export interface LogDestinationOptions {
  /** The file descriptor written to; standard output unless a test says otherwise. */
  fd?: number
  bufferLimitBytes?: number
  retryAfterMs?: number
  /** Told how many lines were lost each time some are (a reader that fell behind, or a failed write). */
  onDropped: (lines: number) => void
}

/**
 * Where pino writes the process's log lines. Logging never blocks serving or shutdown: writes are
 * asynchronous and a pipe is non-blocking; at most `bufferLimitBytes` wait for a slow reader; a line
 * that cannot be written is dropped and counted (`onDropped`); after a failed write (EPIPE: the
 * reader died) lines are dropped for `retryAfterMs`, then a fresh writer tries again. There is no
 * synchronous flush (pino would call it after `fatal()`, and sonic-boom's retries a broken pipe
 * forever): `drain()` waits a bounded time. docs/decisions/log-destination.md
 */
export class LogDestination {
  private readonly fd: number
  private readonly bufferLimitBytes: number
  private readonly retryAfterMs: number
  private readonly onDropped: (lines: number) => void
  private writer: SonicBoom | undefined
  /** Lines handed to the writer and not yet known to be written (reset when it drains). */
  private unconfirmedLines = 0
  private failedAt = Number.NEGATIVE_INFINITY
  private readonly waiters = new Set<() => void>()

  constructor(options: LogDestinationOptions) {
    this.fd = options.fd ?? 1
    this.bufferLimitBytes = options.bufferLimitBytes ?? LOG_BUFFER_LIMIT_BYTES
    this.retryAfterMs = options.retryAfterMs ?? LOG_RETRY_AFTER_MS
    this.onDropped = options.onDropped
    // Node opens a pipe or socket on standard output in non-blocking mode (a file or a terminal
    // is left as it is); sonic-boom then retries a full pipe later instead of waiting in a thread.
    if (this.fd === 1) void process.stdout
  }

  /** Takes one log line; never throws and never waits. */
  write(line: string): void {
    const writer = this.writer ?? this.reopen()
    if (!writer) {
      this.onDropped(1)
      return
    }
    this.unconfirmedLines += 1
    writer.write(line)
  }

  /** Resolves once every line taken is written, the destination failed, or `timeoutMs` passed. */
  drain(timeoutMs: number): Promise<void> {
    if (this.unconfirmedLines === 0 || !this.writer) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, timeoutMs)
      this.waiters.add(done)
    })
  }

  private reopen(): SonicBoom | undefined {
    if (Date.now() - this.failedAt < this.retryAfterMs) return undefined
    const writer = new SonicBoom({ fd: this.fd, sync: false, maxLength: this.bufferLimitBytes })
    writer.on('drop', () => {
      this.unconfirmedLines -= 1
      this.onDropped(1)
    })
    writer.on('drain', () => {
      if (writer !== this.writer) return
      this.unconfirmedLines = 0
      this.wakeWaiters()
    })
    writer.on('error', () => {
      if (writer !== this.writer) return
      // The failed writer keeps what it could not write; it is dropped with it, never retried.
      this.writer = undefined
      this.failedAt = Date.now()
      const lost = this.unconfirmedLines
      this.unconfirmedLines = 0
      if (lost > 0) this.onDropped(lost)
      this.wakeWaiters()
    })
    this.writer = writer
    return writer
  }

  private wakeWaiters(): void {
    for (const waiter of [...this.waiters]) waiter()
  }
}
