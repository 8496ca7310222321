import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { type Kysely, sql } from 'kysely'
import { ChannelTestRunner } from './admin/channels/channel-test-runner.ts'
import type { AppContext } from './app-context.ts'
import { SessionCipher } from './auth/session-cookie.ts'
import { ensureRootUser } from './bootstrap-root.ts'
import type { Config } from './config/env.ts'
import { OptionsStore } from './config/options-store.ts'
import { type DatabaseHandle, openDatabase } from './db/database.ts'
import { describeTarget, parseDatabaseTarget } from './db/dsn.ts'
import { migrateLogs, migrateMain } from './db/migrations/migrate.ts'
import { checkLogTotals } from './db/repositories/log-totals-check.ts'
import type { LogSchema, MainSchema } from './db/schema.ts'
import { type EventBus, MemoryEventBus, RedisEventBus } from './platform/event-bus.ts'
import { MemoryOneTimeStore, type OneTimeStore, RedisOneTimeStore } from './platform/one-time-store.ts'
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './platform/rate-limiter.ts'
import { connectRedis } from './platform/redis.ts'
import { ChannelHealthMonitor } from './relay/health/channel-health-monitor.ts'
import { MemoryFailureWindow, RedisFailureWindow } from './relay/health/failure-window.ts'
import { notifyRoot } from './relay/health/notify-root.ts'
import { createRelayServices } from './relay/relay-services.ts'
import { VERSION } from './version.ts'

export interface Runtime {
  context: AppContext
  redis?: Redis
  close(): Promise<void>
}

/** Opens the databases, runs migrations, connects Redis and loads options. */
export async function createRuntime(config: Config, logger: FastifyBaseLogger): Promise<Runtime> {
  const databaseOptions = {
    poolSize: config.SQL_MAX_OPEN_CONNS,
    busyTimeoutMs: config.SQLITE_BUSY_TIMEOUT,
    maxLifetimeSeconds: config.SQL_MAX_LIFETIME,
  }
  const mainTarget = parseDatabaseTarget(config.SQL_DSN, config.SQLITE_PATH)
  const main: DatabaseHandle<MainSchema> = openDatabase(mainTarget, databaseOptions)
  let logs: DatabaseHandle<LogSchema> = main as unknown as DatabaseHandle<LogSchema>
  if (config.LOG_SQL_DSN) {
    const logTarget = parseDatabaseTarget(config.LOG_SQL_DSN, config.SQLITE_PATH)
    logs = openDatabase(logTarget, databaseOptions)
    logger.info(`logs database: ${describeTarget(logTarget)}`)
  }
  logger.info(`database: ${describeTarget(mainTarget)}`)
  if (config.NODE_TYPE === 'master') {
    const applied = [
      ...(await migrateMain(main.db as Kysely<unknown>, main.dialect)),
      ...(await migrateLogs(logs.db as Kysely<unknown>, logs.dialect)),
    ]
    if (applied.length > 0) logger.info(`migrations applied: ${applied.join(', ')}`)
    // Logs written or deleted behind the gateway's back (one-api on the same database, by hand)
    // would leave the log page's and the dashboards' totals wrong: they are rebuilt.
    const rebuilt = await checkLogTotals(logs.db as Kysely<unknown>)
    if (rebuilt.length > 0) {
      logger.warn(`log totals did not match the stored logs and were rebuilt: ${rebuilt.join(', ')}`)
    }
  }
  // SQLite keeps no planner statistics by itself; refresh them at start and then hourly.
  const optimizeSqlite = () => {
    const handles = new Set<{ dialect: string; db: unknown }>([main, logs])
    for (const handle of handles) {
      if (handle.dialect === 'sqlite')
        void sql`pragma optimize`.execute(handle.db as Kysely<unknown>).catch(() => {})
    }
  }
  optimizeSqlite()
  const optimizer = setInterval(optimizeSqlite, 3_600_000)
  optimizer.unref()

  let redis: Redis | undefined
  let bus: EventBus = new MemoryEventBus()
  let rateLimiter: RateLimiter = new MemoryRateLimiter()
  let oneTimeCodes: OneTimeStore = new MemoryOneTimeStore()
  if (config.REDIS_CONN_STRING) {
    redis = await connectRedis(config.REDIS_CONN_STRING, config.REDIS_PASSWORD, logger)
    bus = await RedisEventBus.create(redis, logger)
    await rateLimiter.close()
    rateLimiter = new RedisRateLimiter(redis)
    await oneTimeCodes.close()
    oneTimeCodes = new RedisOneTimeStore(redis)
    logger.info('Redis enabled: rate limits and change notifications are shared by every node')
  }

  if (config.sessionSecretGenerated) {
    logger.warn(
      'SESSION_SECRET is not set: sessions end when the server restarts and are not shared between nodes',
    )
  }
  const options = new OptionsStore(main.db, main.dialect, bus, (error) =>
    logger.error({ err: error }, 'reloading the options failed'),
  )
  await options.load()
  // Like the routing index: a change whose announcement this node missed is applied by then.
  options.reloadEvery(config.SYNC_FREQUENCY * 1000)
  const relay = await createRelayServices(config, main.db, logs.db, bus, logger, main.sqlite)
  const context: AppContext = {
    config,
    db: main.db,
    dialect: main.dialect,
    logDb: logs.db,
    logDialect: logs.dialect,
    options,
    bus,
    rateLimiter,
    oneTimeCodes,
    sessions: new SessionCipher(config.SESSION_SECRET ?? randomBytes(32).toString('hex')),
    version: VERSION,
    startTime: Math.floor(Date.now() / 1000),
    relay,
  }
  relay.notifyOperator = (title, content) => void notifyRoot(context, logger, title, content)
  context.channelHealth = new ChannelHealthMonitor(
    context,
    logger,
    redis ? new RedisFailureWindow(redis, logger) : new MemoryFailureWindow(),
    config.CHANNEL_DISABLE_FAILURE_COUNT,
    config.CHANNEL_DISABLE_FAILURE_WINDOW,
  )
  const channelTests = new ChannelTestRunner(context, logger)
  channelTests.schedule(config.CHANNEL_TEST_FREQUENCY)
  context.channelTests = channelTests
  if (config.NODE_TYPE === 'master') await ensureRootUser(context, logger)

  return {
    context,
    redis,
    async close() {
      clearInterval(optimizer)
      options.close()
      channelTests.close()
      await relay.close()
      await bus.close()
      await rateLimiter.close()
      await oneTimeCodes.close()
      redis?.disconnect()
      if (logs !== (main as unknown)) await logs.close()
      await main.close()
    },
  }
}
