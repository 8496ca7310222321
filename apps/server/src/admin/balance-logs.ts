import type { Kysely, Transaction } from 'kysely'
import type { AppContext } from '../app-context.ts'
import { insertLogs } from '../db/repositories/logs-repository.ts'
import type { LogSchema, MainSchema, NewLog } from '../db/schema.ts'

export type BalanceLogWriter = (logs: NewLog[]) => Promise<void>

/**
 * Writes the logs of a balance change made in `transaction` so that both stand or fall together:
 * in the same transaction when the logs live in the main database; with a separate log database
 * (LOG_SQL_DSN), before the balance change commits, so a log that cannot be written rolls the
 * change back (a balance never moves without its record, and a retried call never credits twice).
 */
export function balanceLogWriter(
  context: AppContext,
  transaction: Transaction<MainSchema>,
): BalanceLogWriter {
  const sameDatabase = (context.logDb as unknown) === (context.db as unknown)
  const target = sameDatabase ? (transaction as unknown as Kysely<LogSchema>) : context.logDb
  return (logs) => insertLogs(target, logs)
}
