import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * SQLite's auto-checkpoint threshold (WAL pages) on every connection of ours. WalCheckpointer
 * checkpoints from its own thread; a connection left at SQLite's default of 1000 pages would run a
 * checkpoint, fsyncs included, inside one of its commits instead, holding the write lock that the
 * relay's reservations wait for. Far out, it is a backstop should the checkpointer fall behind, and
 * the bound of the WAL file (64 MB): when commits come faster than passive checkpoints catch up,
 * the WAL is reset only after a commit runs this one. Numbers: docs/decisions/sqlite-wal-checkpoints.md.
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
