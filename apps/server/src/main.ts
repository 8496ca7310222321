// First: V8's settings apply to what is allocated after them.
import './platform/v8-flags.ts'
import { config as loadDotenv } from 'dotenv'
import pino from 'pino'
import { buildApp } from './app.ts'
import { preloadTokenizers } from './billing/token-counting/encoders.ts'
import { createRuntime } from './bootstrap.ts'
import { ConfigError, loadConfig } from './config/env.ts'
import { DsnError } from './db/dsn.ts'

loadDotenv({ quiet: true })

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
  const logger = pino({ level: config.LOG_LEVEL })
  let runtime: Awaited<ReturnType<typeof createRuntime>>
  try {
    runtime = await createRuntime(config, logger)
  } catch (error) {
    if (error instanceof DsnError) logger.fatal(error.message)
    else logger.fatal({ err: error }, 'start-up failed')
    process.exit(1)
  }
  // Load the tokenizer vocabularies now rather than on the first request that needs a local count.
  preloadTokenizers()
  const app = await buildApp(runtime.context, { logger: { level: config.LOG_LEVEL } })
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
    try {
      await app.close()
      await runtime.close()
    } finally {
      clearTimeout(deadline)
      logger.info('stopped')
      process.exit(0)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

void main()
