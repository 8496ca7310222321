import { type Kysely, type Migration, Migrator } from 'kysely'
import type { Dialect } from '../dialect.ts'
import { backfillDailyTotals } from '../repositories/log-totals.ts'
import { backfillUsage, backfillUsageFromDaily } from '../repositories/usage-rollups.ts'
import { ensureTables } from './ensure-tables.ts'
import { logTables, mainTables, quotaHoldTables } from './table-definitions.ts'
import { droppedUsageIndexes } from './usage-table-definitions.ts'

/**
 * Ordered migrations. Kysely's migrator takes a database-level lock, so several nodes starting at
 * once run each migration exactly once. Add a new entry for every later schema change.
 */
function mainMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-one-api-base-schema': { up: (db) => ensureTables(db, dialect, mainTables) },
    // Quota held by each node for requests in flight, given back when a node dies (quota-holds.ts).
    '0002-quota-holds': { up: (db) => ensureTables(db, dialect, quotaHoldTables) },
    // The ids of the last writes on each hold row, which make the ledger's retries apply once
    // (server-ledger-writes.ts).
    '0003-quota-hold-write-ids': { up: (db) => ensureTables(db, dialect, quotaHoldTables) },
    // users.session_version, which makes sessions revocable (sign-out ends every session).
    '0004-user-session-version': { up: (db) => ensureTables(db, dialect, mainTables) },
  }
}

function logMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-one-api-logs': { up: (db) => ensureTables(db, dialect, logTables) },
    // Adds the covering index for log sums (idx_logs_type_created_at_sums) to existing databases.
    '0002-log-sum-index': { up: (db) => ensureTables(db, dialect, logTables) },
    // Adds log_daily_totals and fills it from the logs already stored (one-api's or ours).
    '0003-log-daily-totals': {
      up: async (db) => {
        await ensureTables(db, dialect, logTables)
        await backfillDailyTotals(db)
      },
    },
    // Adds the dashboards' usage tables and fills them from the logs already stored.
    '0004-usage-rollups': {
      up: async (db) => {
        await ensureTables(db, dialect, logTables)
        await backfillUsage(db)
      },
    },
    // The top users of one model or one channel get tables of their own (day × user), which
    // replace usage_daily's two wide indexes; usage_daily_channels gets model and channel indexes.
    '0005-usage-dashboard-grains': {
      up: async (db) => {
        for (const name of droppedUsageIndexes) {
          let drop = db.schema.dropIndex(name).ifExists()
          if (dialect === 'mysql') drop = drop.on('usage_daily')
          await drop.execute()
        }
        await ensureTables(db, dialect, logTables)
        await backfillUsageFromDaily(db, ['usage_daily_model_users', 'usage_daily_channel_users'])
      },
    },
    // The whole day's usage with a version per day, which the dashboards' cache of finished days
    // checks (usage_daily_totals), filled from usage_daily.
    '0006-usage-daily-totals': {
      up: async (db) => {
        await ensureTables(db, dialect, logTables)
        await backfillUsageFromDaily(db, ['usage_daily_totals'])
      },
    },
    // Day × model and day × channel (usage_daily_models, usage_daily_channel_totals), which answer
    // the top models and channels across everything, filled from usage_daily. (The name is kept:
    // databases record it as run.)
    '0007-usage-first-look-grains': {
      up: async (db) => {
        await ensureTables(db, dialect, logTables)
        await backfillUsageFromDaily(db, ['usage_daily_models', 'usage_daily_channel_totals'])
      },
    },
  }
}

async function run(
  db: Kysely<unknown>,
  migrations: Record<string, Migration>,
  table: string,
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: table,
    migrationLockTableName: `${table}_lock`,
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName)
}

export function migrateMain(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  return run(db, mainMigrations(dialect), 'oneapi_migrations')
}

export function migrateLogs(db: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  return run(db, logMigrations(dialect), 'oneapi_log_migrations')
}
