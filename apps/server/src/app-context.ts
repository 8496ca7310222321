import type { Kysely } from 'kysely'
import type { SessionCipher } from './auth/session-cookie.ts'
import type { Config } from './config/env.ts'
import type { OptionsStore } from './config/options-store.ts'
import type { Dialect } from './db/dialect.ts'
import type { LogSchema, MainSchema } from './db/schema.ts'
import type { EventBus } from './platform/event-bus.ts'
import type { RateLimiter } from './platform/rate-limiter.ts'
import type { ChannelHealth } from './relay/health/channel-health.ts'
import type { RelayServices } from './relay/relay-services.ts'

/** Everything a route or service needs, built once at start (see bootstrap.ts). */
export interface AppContext {
  config: Config
  db: Kysely<MainSchema>
  dialect: Dialect
  /** The logs table's database: the main one unless LOG_SQL_DSN is set. */
  logDb: Kysely<LogSchema>
  logDialect: Dialect
  options: OptionsStore
  bus: EventBus
  rateLimiter: RateLimiter
  sessions: SessionCipher
  version: string
  startTime: number
  relay: RelayServices
  /** Failure accounting that auto-disables channels (absent in unit setups). */
  channelHealth?: ChannelHealth
  /** Background tests of many channels (test all, CHANNEL_TEST_FREQUENCY). */
  channelTests?: ChannelTests
}

/** Starts background tests of many channels (implemented by admin/channels/channel-test-runner.ts). */
export interface ChannelTests {
  /** Starts a run unless one is already going; returns whether it started. */
  start(scope: 'all' | 'disabled', onlyFailures?: boolean): boolean
  /** Whether a run is going. */
  readonly isRunning: boolean
}
