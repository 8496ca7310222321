import type { Worker } from 'node:worker_threads'
import { startSqliteWorker } from './sqlite-worker.ts'

/**
 * One statement run: its index in the thread's statement list, and its parameters (values
 * better-sqlite3 binds: numbers, strings, bigints, buffers, null).
 */
export type StatementRun = readonly [statement: number, parameters: readonly unknown[]]

/** Which SQLite error stopped a batch (the `code` of better-sqlite3's SqliteError, if any). */
export class SqliteWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/**
 * Runs batches of writes against a SQLite database file from a worker thread with its own
 * connection, so the CPU SQLite spends storing them is taken off the event loop. Each batch is
 * one IMMEDIATE transaction (all or nothing), and batches commit in the order they were sent.
 * The statements are fixed when the thread starts and prepared on first use, so a missing table
 * fails a batch, not the start.
 */
export class SqliteWriteThread {
  private readonly worker: Worker
  private readonly waiting = new Map<number, { resolve(): void; reject(error: Error): void }>()
  private nextId = 0
  private failure: Error | undefined
  private onIdle: Array<() => void> = []

  constructor(file: string, statements: readonly string[], busyTimeoutMs: number) {
    this.worker = startSqliteWorker(file, busyTimeoutMs, RUN_BATCHES, { statements })
    // The thread keeps the process alive only while a batch is on its way (see run()).
    this.worker.unref()
    this.worker.on('message', (reply: { id: number; error?: { message: string; code?: string } }) => {
      const waiter = this.waiting.get(reply.id)
      this.waiting.delete(reply.id)
      if (reply.error) waiter?.reject(new SqliteWriteError(reply.error.message, reply.error.code))
      else waiter?.resolve()
      if (this.waiting.size === 0) this.becameIdle()
    })
    this.worker.on('error', (error) => this.fail(error))
    this.worker.on('exit', (code) => this.fail(new Error(`the SQLite write thread exited with code ${code}`)))
  }

  /** Commits the runs in one transaction on the thread; rejects, with nothing applied, if it failed. */
  run(batch: readonly StatementRun[]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      if (this.waiting.size === 1) this.worker.ref()
      this.worker.postMessage({ id, batch })
    })
  }

  /** True once the thread has stopped (closed, or it died): every batch is refused from then on. */
  get stopped(): boolean {
    return this.failure !== undefined
  }

  /** True while some batch sent is not committed (or failed) yet. */
  get busy(): boolean {
    return this.waiting.size > 0
  }

  /** Resolves once every batch sent so far is done. */
  async idle(): Promise<void> {
    if (this.waiting.size > 0) await new Promise<void>((resolve) => this.onIdle.push(resolve))
  }

  /** Waits for the batches already sent, then stops the thread. */
  async close(): Promise<void> {
    await this.idle()
    this.failure ??= new Error('the SQLite write thread is closed')
    await this.worker.terminate()
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const waiter of this.waiting.values()) waiter.reject(error)
    this.waiting.clear()
    this.becameIdle()
  }

  private becameIdle(): void {
    this.worker.unref()
    for (const resolve of this.onIdle.splice(0)) resolve()
  }
}

const RUN_BATCHES = `
database.pragma('synchronous = NORMAL')
// A multi-row INSERT inside a transaction keeps a statement journal, which SQLite moves to a temp
// file once it passes 64 KiB: at 50 connections about 13 files a second were created in /var/tmp,
// written and unlinked by this thread, and each batch depended on a writable temp directory. Kept
// in memory, it needs neither. This connection only runs such batches, so no large sort
// or temp table can grow here.
database.pragma('temp_store = MEMORY')
const prepared = []
const statement = (index) => (prepared[index] ??= database.prepare(workerData.statements[index]))
const runAll = database.transaction((batch) => {
  for (const [index, parameters] of batch) statement(index).run(parameters)
})
parentPort.on('message', ({ id, batch }) => {
  try {
    runAll.immediate(batch)
    parentPort.postMessage({ id })
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } })
  }
})
`
