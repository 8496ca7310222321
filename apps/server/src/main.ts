// First: V8's settings apply to what is allocated after them.
import './platform/v8-flags.ts'
import { config as loadDotenv } from 'dotenv'
import pino from 'pino'
import { buildApp } from './app.ts'
import { preloadTokenizers } from './billing/token-counting/encoders.ts'
import { createRuntime } from './bootstrap.ts'
import { ConfigError, loadConfig } from './config/env.ts'
import { DsnError } from './db/dsn.ts'
import { LogDestination } from './platform/log-destination.ts'
import { Counter } from './relay/metrics/prometheus.ts'

loadDotenv({ quiet: true })

/** How long the last log lines may take to reach a slow reader before the process exits anyway. */
const FINAL_LOG_FLUSH_MS = 1000
/** Beyond the two shutdown timeouts, what the relay's billing and logs may take (docs/operations.md). */
const SHUTDOWN_SETTLE_SECONDS = 10

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const logLinesDropped = new Counter(
    'oneapi_log_lines_dropped_total',
    'Log lines lost because the log destination failed or its reader fell behind',
    [],
  )
  const dropped = logLinesDropped.labels()
  const destination = new LogDestination({
    onDropped: (lines) => {
      dropped.value += lines
    },
  })
  const logger = pino({ level: config.LOG_LEVEL }, destination)
  const exit = async (code: number): Promise<never> => {
    await destination.drain(FINAL_LOG_FLUSH_MS)
    process.exit(code)
  }

  let runtime: Awaited<ReturnType<typeof createRuntime>>
  try {
    runtime = await createRuntime(config, logger)
  } catch (error) {
    if (error instanceof DsnError) logger.fatal(error.message)
    else logger.fatal({ err: error }, 'start-up failed')
    return exit(1)
  }
  runtime.context.relay.metrics.registry.register(logLinesDropped)
  // Load the tokenizer vocabularies now rather than on the first request that needs a local count.
  preloadTokenizers()
  const app = await buildApp(runtime.context, { loggerInstance: logger })
  const address = await app.listen({ port: config.PORT, host: config.HOST })
  logger.info(`One API ${runtime.context.version} listening on ${address}`)

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info(`${signal} received: finishing in-flight requests (up to ${config.SHUTDOWN_TIMEOUT}s)`)
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached: closing remaining connections')
      runtime.context.relay.connectionsCut = true
      app.server.closeAllConnections()
    }, config.SHUTDOWN_TIMEOUT * 1000)
    deadline.unref()
    // Whatever still waits then (a database that never answers), the process ends.
    const lastResort = setTimeout(
      () => {
        logger.error('shutdown did not finish in time: exiting without it')
        void exit(1)
      },
      (2 * config.SHUTDOWN_TIMEOUT + SHUTDOWN_SETTLE_SECONDS) * 1000 - FINAL_LOG_FLUSH_MS,
    )
    lastResort.unref()
    try {
      await app.close()
      await runtime.close()
    } finally {
      clearTimeout(deadline)
      clearTimeout(lastResort)
      logger.info('stopped')
      await exit(0)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

void main()
