import type SqliteDatabase from 'better-sqlite3'
import { logsTable } from '../db/migrations/table-definitions.ts'
import { totalsByDay } from '../db/repositories/log-totals.ts'
import type { NewLog } from '../db/repositories/logs-repository.ts'

/**
 * The batched consume-log write as prepared better-sqlite3 statements: one single-row INSERT run
 * per log plus one upsert per day of totals, in one transaction. Building and compiling a
 * 200-row INSERT through the query builder cost more CPU than SQLite spent storing the rows.
 */
export interface SqliteLogStatements {
  /**
   * Stores the logs and adds their consume totals to log_daily_totals in one transaction (all or
   * nothing). Returns false, having written nothing, when some log leaves a column undefined or
   * sets the id: the query builder gives those a default, so they must go through it to be stored
   * the same way.
   */
  insertWithTotals(logs: readonly NewLog[]): boolean
}

/** Every column a log is written with: the table's columns but the generated id. */
const COLUMNS = logsTable.columns.map((column) => column.name).filter((name) => name !== 'id')

export function prepareSqliteLogStatements(database: SqliteDatabase.Database): SqliteLogStatements {
  const insertLog = database.prepare(
    `insert into logs (${COLUMNS.map((name) => `"${name}"`).join(', ')})
     values (${COLUMNS.map(() => '?').join(', ')})`,
  )
  const addTotals = database.prepare(
    `insert into log_daily_totals (day, quota, tokens, request_count) values (?, ?, ?, ?)
     on conflict (day) do update set quota = log_daily_totals.quota + excluded.quota,
       tokens = log_daily_totals.tokens + excluded.tokens,
       request_count = log_daily_totals.request_count + excluded.request_count`,
  )
  const write = database.transaction((rows: unknown[][], logs: readonly NewLog[]) => {
    for (const row of rows) insertLog.run(row)
    for (const day of totalsByDay(logs)) addTotals.run(day.day, day.quota, day.tokens, day.request_count)
  })
  return {
    insertWithTotals(logs) {
      const rows: unknown[][] = []
      for (const log of logs) {
        const row = columnValues(log)
        if (!row) return false
        rows.push(row)
      }
      write(rows, logs)
      return true
    },
  }
}

/** The values in COLUMNS order, bound as the query builder binds them; undefined when it would not. */
function columnValues(log: NewLog): unknown[] | undefined {
  if (log.id !== undefined) return undefined
  const fields = log as unknown as Record<string, unknown>
  const values: unknown[] = new Array(COLUMNS.length)
  for (let index = 0; index < COLUMNS.length; index++) {
    const value = fields[COLUMNS[index]]
    if (value === undefined) return undefined
    // better-sqlite3 cannot bind booleans; the builder's SqliteBooleanPlugin turns them into 1/0.
    values[index] = typeof value === 'boolean' ? (value ? 1 : 0) : value
  }
  return values
}
