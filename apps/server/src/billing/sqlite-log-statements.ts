import { logsTable } from '../db/migrations/table-definitions.ts'
import { totalsByDay } from '../db/repositories/log-totals.ts'
import type { NewLog } from '../db/repositories/logs-repository.ts'
import type { StatementRun } from '../db/sqlite-write-thread.ts'

/**
 * The batched consume-log write on SQLite: one single-row INSERT per log plus one upsert per day
 * of totals, in one transaction, run by a write thread with its own connection (see LogWriter).
 * Storing a log touches the table and its eight indexes; on the event loop that was the largest
 * cost of a relayed request after the socket writes. (Building and compiling multi-row INSERTs
 * through the query builder cost more CPU still.)
 */

/** Every column a log is written with: the table's columns but the generated id. */
const COLUMNS = logsTable.columns.map((column) => column.name).filter((name) => name !== 'id')
const INSERT_LOG = 0
const ADD_TOTALS = 1
/** The statements a log write thread is started with (see logBatch). */
export const LOG_STATEMENTS = [
  `insert into logs (${COLUMNS.map((name) => `"${name}"`).join(', ')})
   values (${COLUMNS.map(() => '?').join(', ')})`,
  `insert into log_daily_totals (day, quota, tokens, request_count) values (?, ?, ?, ?)
   on conflict (day) do update set quota = log_daily_totals.quota + excluded.quota,
     tokens = log_daily_totals.tokens + excluded.tokens,
     request_count = log_daily_totals.request_count + excluded.request_count`,
]

/**
 * The logs and their consume totals (log_daily_totals) as one write-thread batch. Undefined when
 * some log leaves a column undefined or sets the id: the query builder gives those a default, so
 * they must go through it to be stored the same way.
 */
export function logBatch(logs: readonly NewLog[]): StatementRun[] | undefined {
  const batch: StatementRun[] = []
  for (const log of logs) {
    const row = columnValues(log)
    if (!row) return undefined
    batch.push([INSERT_LOG, row])
  }
  for (const day of totalsByDay(logs)) {
    batch.push([ADD_TOTALS, [day.day, day.quota, day.tokens, day.request_count]])
  }
  return batch
}

/** The values in COLUMNS order, bound as the query builder binds them; undefined when it would not. */
function columnValues(log: NewLog): unknown[] | undefined {
  if (log.id !== undefined) return undefined
  const fields = log as unknown as Record<string, unknown>
  // Filled by push, not preallocated: a preallocated array is "holey", and V8 clones a holey
  // array for the thread property by property, about twice as slow (measured 1.1 vs 0.6 µs a row).
  const values: unknown[] = []
  for (const column of COLUMNS) {
    const value = fields[column]
    if (value === undefined) return undefined
    // better-sqlite3 cannot bind booleans; the builder's SqliteBooleanPlugin turns them into 1/0.
    values.push(typeof value === 'boolean' ? (value ? 1 : 0) : value)
  }
  return values
}
