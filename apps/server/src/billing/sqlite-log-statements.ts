import { logsTable } from '../db/migrations/table-definitions.ts'
import { totalsByDay } from '../db/repositories/log-totals.ts'
import {
  groupUsage,
  logUsageDeltas,
  USAGE_TABLES,
  usageColumns,
  usageUpsertStatement,
} from '../db/repositories/usage-rollups.ts'
import type { NewLog } from '../db/schema.ts'
import type { StatementRun } from '../db/sqlite-write-thread.ts'

/**
 * The batched consume-log write on SQLite: the logs as multi-row INSERTs of ROWS_PER_STATEMENT rows
 * (the rest one row each) plus one upsert per day of totals, in one transaction, run by a write
 * thread with its own connection (see LogWriter), with one upsert per row of each usage table
 * (usage-rollups.ts). Storing a log touches the table and its eight
 * indexes, too costly for the event loop. The INSERTs are prepared once rather than built through
 * the query builder. Numbers: docs/decisions/sqlite-log-batches.md.
 */

/** Every column a log is written with: the table's columns but the generated id. */
const COLUMNS = logsTable.columns.map((column) => column.name).filter((name) => name !== 'id')
/**
 * Rows per multi-row INSERT: one statement step, one bind call and one AUTOINCREMENT bookkeeping for
 * many rows. 1,600 parameters, far below SQLite's limit of 32,766.
 */
const ROWS_PER_STATEMENT = 100
const INSERT_LOG = 0
const ADD_TOTALS = 1
const INSERT_LOGS = 2
/** The usage tables' upserts follow, one statement per table in USAGE_TABLES order. */
const ADD_USAGE = 3
const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => '?').join(', ')})`
const INSERT_INTO_LOGS = `insert into logs (${COLUMNS.map((name) => `"${name}"`).join(', ')}) values`
/** The statements a log write thread is started with (see logBatch). */
export const LOG_STATEMENTS = [
  `${INSERT_INTO_LOGS} ${ROW_PLACEHOLDERS}`,
  `insert into log_daily_totals (day, quota, tokens, request_count) values (?, ?, ?, ?)
   on conflict (day) do update set quota = log_daily_totals.quota + excluded.quota,
     tokens = log_daily_totals.tokens + excluded.tokens,
     request_count = log_daily_totals.request_count + excluded.request_count`,
  `${INSERT_INTO_LOGS} ${Array.from({ length: ROWS_PER_STATEMENT }, () => ROW_PLACEHOLDERS).join(', ')}`,
  ...USAGE_TABLES.map(usageUpsertStatement),
]

/**
 * The logs, their consume totals (log_daily_totals) and usage as one write-thread batch. Undefined when
 * some log leaves a column undefined or sets the id: the query builder gives those a default, so
 * they must go through it to be stored the same way.
 */
export function logBatch(logs: readonly NewLog[]): StatementRun[] | undefined {
  const batch: StatementRun[] = []
  const inWholeStatements = logs.length - (logs.length % ROWS_PER_STATEMENT)
  for (let start = 0; start < logs.length; ) {
    const rows = start < inWholeStatements ? ROWS_PER_STATEMENT : 1
    const values: unknown[] = []
    for (let index = start; index < start + rows; index++) {
      if (!pushColumnValues(logs[index]!, values)) return undefined
    }
    batch.push([rows === 1 ? INSERT_LOG : INSERT_LOGS, values])
    start += rows
  }
  for (const day of totalsByDay(logs)) {
    batch.push([ADD_TOTALS, [day.day, day.quota, day.tokens, day.request_count]])
  }
  const usage = groupUsage(logUsageDeltas(logs))
  USAGE_TABLES.forEach((table, index) => {
    const columns = usageColumns(table)
    for (const row of usage[table]) {
      batch.push([ADD_USAGE + index, columns.map((column) => row[column])])
    }
  })
  return batch
}

/**
 * Appends the log's values in COLUMNS order, bound as the query builder binds them; false when it
 * would not.
 */
function pushColumnValues(log: NewLog, values: unknown[]): boolean {
  if (log.id !== undefined) return false
  const fields = log as unknown as Record<string, unknown>
  // Filled by push, not preallocated: a preallocated array is "holey", and V8 clones a holey
  // array for the thread property by property, about twice as slow.
  for (const column of COLUMNS) {
    const value = fields[column]
    if (value === undefined) return false
    // better-sqlite3 cannot bind booleans; the builder's SqliteBooleanPlugin turns them into 1/0.
    values.push(typeof value === 'boolean' ? (value ? 1 : 0) : value)
  }
  return true
}
