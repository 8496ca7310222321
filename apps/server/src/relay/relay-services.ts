import { dirname, join } from 'node:path'
import type SqliteDatabase from 'better-sqlite3'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import { Ledger } from '../billing/ledger/ledger.ts'
import { liveNodeIds, QuotaHoldKeeper } from '../billing/ledger/quota-holds.ts'
import { settlementRetriesWithin } from '../billing/ledger/write-retries.ts'
import { LogWriter } from '../billing/log-writer.ts'
import { UsageErrorRecorder } from '../billing/usage-error-recorder.ts'
import type { Config } from '../config/env.ts'
import type { LogSchema, MainSchema } from '../db/schema.ts'
import type { EventBus } from '../platform/event-bus.ts'
import { RelayCache } from './auth/relay-cache.ts'
import { UpstreamClient } from './pipeline/upstream-client.ts'
import { RelayMetrics } from './relay-metrics.ts'
import { ChannelRouter } from './routing/channel-router.ts'

/** The long-lived parts of the relay, built once per process and closed on shutdown. */
export interface RelayServices {
  cache: RelayCache
  router: ChannelRouter
  ledger: Ledger
  logWriter: LogWriter
  /** Failed upstream attempts, counted for the dashboards' error rates. */
  usageErrors: UsageErrorRecorder
  upstream: UpstreamClient
  metrics: RelayMetrics
  /**
   * Set by the shutdown just before it closes the connections still open (main.ts): their
   * requests were cut by the gateway, not by their clients, and their logs say so.
   */
  connectionsCut: boolean
  /** Tells the administrators (set once the app context exists: notify-root.ts). */
  notifyOperator?: (title: string, content: string) => void
  close(): Promise<void>
}

/** BILLING_SPOOL_DIR, else billing-spool beside the SQLite file (or under data/). */
function spoolDirectory(config: Config): string {
  if (config.BILLING_SPOOL_DIR) return config.BILLING_SPOOL_DIR
  return join(config.SQL_DSN ? 'data' : dirname(config.SQLITE_PATH), 'billing-spool')
}

export async function createRelayServices(
  config: Config,
  db: Kysely<MainSchema>,
  logDb: Kysely<LogSchema>,
  bus: EventBus,
  logger: FastifyBaseLogger,
  sqlite?: SqliteDatabase.Database,
): Promise<RelayServices> {
  const router = new ChannelRouter(db, bus, (error) =>
    logger.error({ err: error }, 'reloading the routing index failed'),
  )
  await router.load()
  router.reloadEvery(config.SYNC_FREQUENCY * 1000)
  // Consume logs are stored by the ledger with their charges; the log writer takes the logs that
  // cannot be (in a database of their own, LOG_SQL_DSN, or whose charge failed).
  const separateLogDatabase = (logDb as unknown) !== db
  const logWriter = new LogWriter(logDb, (error) =>
    logger.error({ err: error }, 'writing consume logs failed; will retry'),
  )
  const retryWindowMs = config.BILLING_RETRY_TIMEOUT * 1000
  const ledger = new Ledger(db, sqlite, {
    separateLogs: separateLogDatabase ? logWriter : undefined,
    spoolDirectory: spoolDirectory(config),
    retryWindowMs,
    settlementRounds: 1,
    settlementRetries: settlementRetriesWithin(retryWindowMs),
    onChargeKept: (charge, error) => {
      const [tokenId, userId, channelId, , cost] = charge.settlement
      const requestId = charge.log?.request_id
      const message = `the database did not take a charge within ${config.BILLING_RETRY_TIMEOUT} s: it is kept in the billing spool and applied once the database takes it; token ${tokenId} is refused new requests until then`
      logger.error({ err: error, reqId: requestId, tokenId, userId, channelId, quota: cost }, message)
      relayServices.notifyOperator?.(
        'A charge could not be stored',
        `${message} (request ${requestId ?? 'unknown'}, ${cost} quota): ${(error as Error).message}`,
      )
    },
    onChargeApplied: (charge) =>
      logger.warn(
        { reqId: charge.log?.request_id, tokenId: charge.settlement[0] },
        'a charge kept in the billing spool is stored in the database now',
      ),
    onSettlementDelayed: (error, { logs, ...pair }, round) =>
      logger.error(
        {
          err: error,
          settlement: {
            ...pair,
            channels: Object.fromEntries(pair.channels),
            requestIds: logs.map((log) => log.request_id),
          },
        },
        `the charge of served requests has not reached the database after ${round} rounds of tries (about a minute each); still trying`,
      ),
  })
  const usageErrors = new UsageErrorRecorder(logDb, (error) =>
    logger.error({ err: error }, 'counting failed requests for the dashboards failed; will retry'),
  )
  // What a dead node held for its requests in flight comes back to its tokens and users.
  const holds = new QuotaHoldKeeper(db, ledger.nodeId, {
    nodeTimeoutSeconds: config.QUOTA_HOLD_TIMEOUT,
    onError: (error) => logger.warn({ err: error }, 'keeping the quota holds of the nodes failed'),
    onGivenBack: (quota) =>
      logger.warn(
        { quota },
        'gave back the quota held for requests of a node that stopped without settling them',
      ),
  })
  try {
    await holds.start()
  } catch (error) {
    throw new Error(
      `registering this node for quota holds failed; on a slave, start an upgraded master first (it migrates the schema): ${(error as Error).message}`,
    )
  }
  // Charges kept in the spool are applied once the database takes them: at start (a crashed
  // predecessor's too, once it counts as dead) and every BILLING_RETRY_TIMEOUT seconds.
  const replaySpool = async () => {
    if (!ledger.spool) return
    const live =
      ledger.spool.otherOwners().length > 0 ? await liveNodeIds(db, config.QUOTA_HOLD_TIMEOUT) : new Set()
    await ledger.replaySpool((nodeId) => !live.has(nodeId))
  }
  await replaySpool().catch((error: unknown) =>
    logger.error({ err: error }, 'applying the charges kept in the billing spool failed; will retry'),
  )
  const replayTimer = setInterval(() => {
    replaySpool().catch((error: unknown) =>
      logger.error({ err: error }, 'applying the charges kept in the billing spool failed; will retry'),
    )
  }, retryWindowMs)
  replayTimer.unref()
  const upstream = new UpstreamClient({
    proxy: config.RELAY_PROXY,
    timeoutSeconds: config.RELAY_TIMEOUT,
    maxResponseBytes: config.RELAY_MAX_RESPONSE_BYTES,
    maxStreamSeconds: config.RELAY_MAX_STREAM_SECONDS,
    images: {
      maxBytes: config.RELAY_IMAGE_MAX_BYTES,
      timeoutSeconds: config.RELAY_IMAGE_TIMEOUT,
      allowPrivate: config.RELAY_IMAGE_ALLOW_PRIVATE,
    },
  })
  const relayServices: RelayServices = {
    cache: new RelayCache(db, bus, config.SYNC_FREQUENCY * 1000, (error) =>
      logger.warn({ err: error }, "recording a token's expiry failed"),
    ),
    router,
    ledger,
    logWriter,
    usageErrors,
    upstream,
    metrics: new RelayMetrics(),
    connectionsCut: false,
    async close() {
      // Each part is closed even when one before it fails: the logs are flushed whatever happens.
      try {
        clearInterval(replayTimer)
        router.close()
        // A database out of reach now keeps charges waiting: they get the shutdown's time too.
        const lost = await ledger.close(config.SHUTDOWN_TIMEOUT * 1000)
        for (const settlement of lost) {
          logger.error(
            { settlement },
            'stopping with charges the database never took: they are kept in the billing spool and applied by the next node to start once this one counts as dead',
          )
        }
        await holds.close()
      } finally {
        try {
          await usageErrors.close()
          await logWriter.close()
        } finally {
          await upstream.close()
        }
      }
    },
  }
  return relayServices
}
