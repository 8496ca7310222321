import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

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
`
