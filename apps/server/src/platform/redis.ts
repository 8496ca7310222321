import { Redis } from 'ioredis'

/** Opens a Redis connection from REDIS_CONN_STRING (a redis:// URL), failing fast when unreachable. */
export async function connectRedis(url: string, password?: string): Promise<Redis> {
  const client = new Redis(url, {
    password: password || undefined,
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
  })
  await client.connect()
  await client.ping()
  return client
}
