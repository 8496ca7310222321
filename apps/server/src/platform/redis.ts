import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'

/** How long a command may wait for Redis's answer (Redis answers in well under a millisecond). */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000

/** Opens a Redis connection from REDIS_CONN_STRING (a redis:// URL), failing fast when unreachable. */
export async function connectRedis(
  url: string,
  password: string | undefined,
  logger: FastifyBaseLogger,
): Promise<Redis> {
  const client = new Redis(url, {
    password: password || undefined,
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
    // A Redis that stays connected but stops answering (frozen, overloaded, packets dropped) must
    // not hang the requests that wait on it: a rate limit fails open, an announcement is logged as
    // lost. Without it the console and /api/status hung for as long as Redis did.
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  })
  // Listening before connecting: without an 'error' listener ioredis prints an unstructured
  // "[ioredis] Unhandled error event" for every failed reconnection attempt.
  logConnectionState(client, 'main', logger)
  try {
    await client.connect()
    await client.ping()
  } catch (error) {
    // Start-up stops here; a client left behind would keep reconnecting in the background.
    client.disconnect()
    throw error
  }
  return client
}

/** host:port/db of a client, for logs: never the URL, which may carry the password. */
export function describeRedis(client: Redis): string {
  const { host, port, db, path } = client.options
  return `${path ?? `${host}:${port}`}/${db ?? 0}`
}

/**
 * One structured log line per change of a connection's state: a warning when it is lost (however
 * many reconnection attempts fail after that), a line when it is back. `role` names the connection
 * ('main' for commands, 'subscriber' for change notifications).
 */
export function logConnectionState(client: Redis, role: string, logger: FastifyBaseLogger): void {
  let up = true
  const target = describeRedis(client)
  const lost = (reason: string) => {
    if (!up) return
    up = false
    logger.warn({ redis: role, target, reason }, `Redis connection lost (${role}); reconnecting`)
  }
  client.on('error', (error: Error) => lost(error.message))
  // A connection the server closes (a restart, CLIENT KILL) reconnects without any 'error'.
  client.on('reconnecting', () => lost('connection closed'))
  client.on('ready', () => {
    if (up) return
    up = true
    logger.info({ redis: role, target }, `Redis connection restored (${role})`)
  })
}
