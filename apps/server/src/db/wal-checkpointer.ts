import type { Worker } from 'node:worker_threads'
import { startSqliteWorker } from './sqlite-worker.ts'

/**
 * Checkpoints a SQLite database's write-ahead log from a worker thread of its own. Left to
 * SQLite's auto-checkpoint, the copy of WAL pages into the database file (and its fsync) runs
 * inside whichever commit crosses the threshold: on the relay's event loop, in the middle of a
 * request. Here a second connection runs PASSIVE checkpoints (they never block the writer) on
 * another core. The last checkpoint happens when the main connection closes, as SQLite does.
 */
export class WalCheckpointer {
  private readonly worker: Worker

  constructor(file: string, intervalMs: number, busyTimeoutMs: number) {
    this.worker = startSqliteWorker(file, busyTimeoutMs, CHECKPOINTS, { intervalMs })
    // The checkpointer must never keep the process alive nor take it down: it is only an optimisation.
    this.worker.unref()
    this.worker.on('error', () => {})
  }

  async stop(): Promise<void> {
    await this.worker.terminate()
  }
}

const CHECKPOINTS = `
setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)')
  } catch {
    // Busy or closing: the next round tries again.
  }
}, workerData.intervalMs)
`
