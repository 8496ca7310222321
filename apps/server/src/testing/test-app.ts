import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import pino from 'pino'
import { buildApp } from '../app.ts'
import type { AppContext } from '../app-context.ts'
import { createRuntime } from '../bootstrap.ts'
import { loadConfig } from '../config/env.ts'
import { createScratchDatabase, type TestDialect } from './test-databases.ts'

export const ROOT_PASSWORD = 'root-password-1'
export const ROOT_ACCESS_TOKEN = 'roottestaccesstoken0000000000001'

export interface TestApp {
  app: FastifyInstance
  context: AppContext
  baseUrl: string
  dialect: TestDialect
  /** The environment that points at this app's database, for a second node sharing it. */
  databaseEnv: Record<string, string>
  close(): Promise<void>
}

export interface StartOptions {
  /** Run as another node on the database of an app already started (it owns the database). */
  shareDatabaseWith?: TestApp
}

/**
 * A real server on 127.0.0.1 with its own fresh database, for tests that talk HTTP to it.
 * `env` overrides environment variables (rate limits are off unless a test sets them).
 */
export async function startTestApp(
  dialect: TestDialect,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestApp> {
  const directory = mkdtempSync(join(tmpdir(), 'one-api-test-'))
  const owner = options.shareDatabaseWith
  const scratch = owner ? undefined : await createScratchDatabase(dialect, directory)
  const databaseEnv: Record<string, string> = owner
    ? owner.databaseEnv
    : scratch?.dsn
      ? { SQL_DSN: scratch.dsn }
      : { SQLITE_PATH: scratch?.sqlitePath ?? '' }
  const config = loadConfig({
    ...databaseEnv,
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_ACCESS_TOKEN,
    SESSION_SECRET: 'test-session-secret',
    GLOBAL_API_RATE_LIMIT: '0',
    GLOBAL_WEB_RATE_LIMIT: '0',
    CRITICAL_RATE_LIMIT: '0',
    SQL_MAX_OPEN_CONNS: '5',
    WEB_DIST_PATH: join(directory, 'no-web'),
    ...env,
  })
  const runtime = await createRuntime(config, pino({ level: 'silent' }))
  const app = await buildApp(runtime.context)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return {
    app,
    context: runtime.context,
    baseUrl: address,
    dialect,
    databaseEnv,
    async close() {
      await app.close()
      await runtime.close()
      await scratch?.drop()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
