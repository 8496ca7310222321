import { LogType } from '@one-api/contracts'
import { expect } from 'vitest'
import { type DatabaseHandle, openDatabase } from '../db/database.ts'
import { parseDatabaseTarget } from '../db/dsn.ts'
import type { LogSchema, MainSchema } from '../db/schema.ts'
import { ROOT_PASSWORD } from './gateway-process.ts'
import { ApiClient } from './http-client.ts'
import type { ScratchDatabase } from './test-databases.ts'

/** A connection of the test's own to the database a gateway process uses. */
export function openScratch(database: ScratchDatabase): DatabaseHandle<MainSchema & LogSchema> {
  const target = parseDatabaseTarget(database.dsn, database.sqlitePath ?? 'unused.db')
  return openDatabase<MainSchema & LogSchema>(target, {
    poolSize: 2,
    busyTimeoutMs: 5_000,
    maxLifetimeSeconds: 0,
  })
}

export interface BilledSetup {
  /** The `sk-` key of a limited token of root's. */
  key: string
  tokenId: number
  channelId: number
}

/**
 * Signs in as root on a fresh gateway, adds an OpenAI-compatible channel at `upstreamUrl` for
 * `model` (priced at ratio 1) and a token of `tokenQuota`.
 */
export async function setUpBilling(
  baseUrl: string,
  db: DatabaseHandle<MainSchema & LogSchema>,
  upstreamUrl: string,
  model: string,
  tokenQuota: number,
): Promise<BilledSetup> {
  const admin = new ApiClient(baseUrl)
  const login = await admin.post('/api/user/login', { username: 'root', password: ROOT_PASSWORD })
  expect(login.body.success, JSON.stringify(login.body)).toBe(true)
  const channel = await admin.post('/api/channel/', {
    name: 'upstream',
    type: 50,
    key: 'k',
    base_url: upstreamUrl,
    models: [model],
  })
  expect(channel.body.success, JSON.stringify(channel.body)).toBe(true)
  const ratio = await admin.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [model]: 1 }) })
  expect(ratio.body.success, JSON.stringify(ratio.body)).toBe(true)
  const token = await admin.post('/api/token/', { name: 'burst', remain_quota: tokenQuota })
  expect(token.body.success, JSON.stringify(token.body)).toBe(true)
  const row = await db.db
    .selectFrom('tokens')
    .select(['id', 'key'])
    .where('name', '=', 'burst')
    .executeTakeFirstOrThrow()
  const channelRow = await db.db.selectFrom('channels').select('id').executeTakeFirstOrThrow()
  // The routing index and the options reach the relay within moments.
  await new Promise((resolve) => setTimeout(resolve, 500))
  return { key: `sk-${row.key}`, tokenId: row.id, channelId: channelRow.id }
}

/** Balances and logs of root (user 1), one token and one channel. */
export interface Books {
  userQuota: number
  userUsed: number
  requestCount: number
  tokenRemain: number
  tokenUsed: number
  channelUsed: number
  logs: number
  logQuota: number
  logQuotaOfToken: number
  logQuotaOfChannel: number
  holds: number
  requestIds: Set<string>
}

export async function readBooks(
  db: DatabaseHandle<MainSchema & LogSchema>,
  tokenId: number,
  channelId: number,
): Promise<Books> {
  const user = await db.db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow()
  const token = await db.db
    .selectFrom('tokens')
    .select(['name', 'remain_quota', 'used_quota'])
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow()
  const channel = await db.db
    .selectFrom('channels')
    .select('used_quota')
    .where('id', '=', channelId)
    .executeTakeFirstOrThrow()
  const logs = await db.db
    .selectFrom('logs')
    .select(['quota', 'token_name', 'channel_id', 'request_id'])
    .where('type', '=', LogType.consume)
    .where('user_id', '=', 1)
    .execute()
  const holds = await db.db.selectFrom('quota_holds').select('amount').where('amount', '!=', 0).execute()
  const sum = (rows: typeof logs) => rows.reduce((total, row) => total + Number(row.quota), 0)
  return {
    userQuota: Number(user.quota),
    userUsed: Number(user.used_quota),
    requestCount: Number(user.request_count),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    channelUsed: Number(channel.used_quota),
    logs: logs.length,
    logQuota: sum(logs),
    logQuotaOfToken: sum(logs.filter((row) => row.token_name === token.name)),
    logQuotaOfChannel: sum(logs.filter((row) => Number(row.channel_id) === channelId)),
    holds: holds.length,
    requestIds: new Set(logs.map((row) => row.request_id)),
  }
}

/**
 * The books agree: the logs sum to what the user, the token and the channel used, one consume log
 * per counted request, every balance conserved (`initial`: the user's and the token's quota before
 * any request), nothing held.
 */
export function expectBooksBalanced(books: Books, initial: { userQuota: number; tokenQuota: number }): void {
  expect(books.holds, 'holds left').toBe(0)
  expect(books.logQuota, 'sum of logs = user used_quota').toBe(books.userUsed)
  expect(books.logs, 'consume logs = request_count').toBe(books.requestCount)
  expect(books.logQuotaOfToken, 'sum of logs = token used_quota').toBe(books.tokenUsed)
  expect(books.logQuotaOfChannel, 'sum of logs = channel used_quota').toBe(books.channelUsed)
  expect(books.userQuota + books.userUsed, 'user remain + used = initial').toBe(initial.userQuota)
  expect(books.tokenRemain + books.tokenUsed, 'token remain + used = initial').toBe(initial.tokenQuota)
}
