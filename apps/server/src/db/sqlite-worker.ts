import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * SQLite's auto-checkpoint threshold (WAL pages) on every connection of ours. WalCheckpointer
 * checkpoints from its own thread; a connection left at SQLite's default of 1000 pages would run a
 * checkpoint, fsyncs included, inside one of its commits instead, every few hundred requests under
 * load. On the log write thread that held the write lock 3-4 ms each time (the relay's
 * reservations wait for it), which made up most of the gateway's latency tail at one connection.
 * Far out, it is a backstop should the checkpointer fall behind, and the bound of the WAL file: with
 * a commit every 0.75 ms (one connection) the checkpointer's passive checkpoints never catch up
 * before the next commit, so the WAL is reset only after a commit runs this one. 16,384 pages keep
 * the file at 64 MB (50,000 let it reach 196 MB); under concurrent load the WAL peaked at 40-51 MB,
 * below it. At one connection it then fires every few seconds, copying only what the checkpointer
 * has not yet: no change in the added p50 or p99 measured (0.29-0.32 and 1.3-1.6 ms, three probes).
 */
export const AUTOCHECKPOINT_BACKSTOP_PAGES = 16_384

/**
 * Starts a worker thread with a connection of its own to the SQLite file `file`. `body` is plain
 * JavaScript (the worker has no TypeScript loader: neither tsx nor Vitest's transform reaches it)
 * run once the connection is open, with `database`, `parentPort` and `workerData` in scope;
 * `data` joins workerData.
 */
export function startSqliteWorker(
  file: string,
  busyTimeoutMs: number,
  body: string,
  data: Record<string, unknown> = {},
): Worker {
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3')
  return new Worker(OPEN_CONNECTION + body, {
    eval: true,
    workerData: { ...data, file, busyTimeoutMs, modulePath },
  })
}

const OPEN_CONNECTION = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.modulePath)
const database = new Database(workerData.file, { timeout: workerData.busyTimeoutMs })
database.pragma('wal_autocheckpoint = ${AUTOCHECKPOINT_BACKSTOP_PAGES}')
`
