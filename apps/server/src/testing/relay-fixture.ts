import { LogType } from '@one-api/contracts'
import { ChannelType } from '@one-api/contracts/channel-types'
import { type MockUpstream, type RecordedRequest, startMockUpstream } from '@one-api/mock-upstream'
import OpenAI from 'openai'
import { expect } from 'vitest'
import { eventually } from './eventually.ts'
import { ApiClient, registerAndLogin } from './http-client.ts'
import { ROOT_PASSWORD, startTestApp, type TestApp } from './test-app.ts'
import type { TestDialect } from './test-databases.ts'

/** The request id header every relay response carries (lower-cased as fetch reports it). */
export const REQUEST_ID = 'x-oneapi-request-id'

export interface ChannelFields {
  name?: string
  /** 50 (OpenAI compatible, base URL with /v1) unless set; type 1 gets the bare mock URL. */
  type?: number
  key?: string
  models: string[]
  group?: string[]
  priority?: number
  weight?: number
  model_mapping?: Record<string, string>
  system_prompt?: string
  /** Another upstream than the mock (e.g. a proxy in front of it). */
  base_url?: string
  /**
   * The channel's config column (plugin, api_version, user_id, ...): an object, or a JSON object in
   * a string as the console sends it.
   */
  config?: string | Record<string, unknown>
  /** The legacy `other` column. */
  other?: string
}

export interface TokenFields {
  name?: string
  remain_quota?: number
  unlimited_quota?: boolean
  models?: string
  subnet?: string
  expired_time?: number
}

export interface CreatedToken {
  id: number
  /** With the `sk-` prefix, as a client sends it. */
  key: string
}

export interface LogFilter {
  userId?: number
  model?: string
  requestId?: string
}

const LOG_WAIT_MS = 5_000
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

export interface Balances {
  user: { quota: number; used_quota: number; request_count: number }
  token: { remain_quota: number; used_quota: number }
}

/**
 * A gateway on a fresh database in front of the fake upstream, with root signed in, for relay tests
 * that talk to it over real HTTP with the official `openai` client. Channels, tokens, users and
 * options are made through the management API, as an administrator would.
 */
export class RelayFixture {
  private channelCount = 0

  private constructor(
    readonly server: TestApp,
    readonly mock: MockUpstream,
    readonly root: ApiClient,
  ) {}

  static async start(dialect: TestDialect, env: Record<string, string> = {}): Promise<RelayFixture> {
    const mock = await startMockUpstream({ requestLogSize: 5_000 })
    const server = await startTestApp(dialect, env)
    const root = new ApiClient(server.baseUrl)
    await root.login('root', ROOT_PASSWORD)
    return new RelayFixture(server, mock, root)
  }

  get db() {
    return this.server.context.db
  }

  get baseUrl(): string {
    return this.server.baseUrl
  }

  async close(): Promise<void> {
    await this.server.close()
    await this.mock.close()
  }

  /** Creates a channel pointing at the mock (routed by once the API answered); returns its id. */
  async addChannel(fields: ChannelFields): Promise<number> {
    this.channelCount += 1
    const name = fields.name ?? `channel-${this.channelCount}-${Date.now()}`
    const type = fields.type ?? ChannelType.openAICompatible
    const body = {
      ...fields,
      name,
      type,
      key: fields.key ?? `sk-upstream-${this.channelCount}`,
      base_url:
        fields.base_url ?? (type === ChannelType.openAICompatible ? `${this.mock.url}/v1` : this.mock.url),
      group: fields.group ?? ['default'],
    }
    const created = await this.root.post('/api/channel/', body)
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const row = await this.db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', name)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
    return row.id
  }

  /** A partial update (status, priority, weight) or full form update through PUT /api/channel/. */
  async updateChannel(id: number, fields: Record<string, unknown>): Promise<void> {
    const updated = await this.root.put('/api/channel/', { id, ...fields })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
  }

  async setOption(key: string, value: string | number | boolean): Promise<void> {
    const response = await this.root.put('/api/option/', { key, value })
    expect(response.status, JSON.stringify(response.body)).toBe(200)
  }

  /** Prices test models (merged over the built-in defaults by the pricing lookup). */
  async setPrices(
    modelRatios: Record<string, number>,
    completionRatios: Record<string, number> = {},
  ): Promise<void> {
    await this.setOption('ModelRatio', JSON.stringify(modelRatios))
    await this.setOption('CompletionRatio', JSON.stringify(completionRatios))
  }

  /** Prices each of `models` at one model ratio and one completion ratio. */
  async priceModels(models: readonly string[], modelRatio: number, completionRatio = 1): Promise<void> {
    const each = (ratio: number) => Object.fromEntries(models.map((model) => [model, ratio]))
    await this.setPrices(each(modelRatio), each(completionRatio))
  }

  /** A token of the user signed in on `client` (root when omitted), unlimited unless said otherwise. */
  async createToken(fields: TokenFields = {}, client: ApiClient = this.root): Promise<CreatedToken> {
    const body = {
      name: fields.name ?? `token-${Date.now() % 100_000}`,
      remain_quota: fields.remain_quota ?? 0,
      unlimited_quota: fields.unlimited_quota ?? fields.remain_quota === undefined,
      models: fields.models ?? '',
      subnet: fields.subnet ?? '',
      expired_time: fields.expired_time ?? -1,
    }
    const response = await client.post('/api/token/', body)
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return { id: response.body.data.id, key: response.body.data.key }
  }

  /** Registers a normal user, credits `quota` as root, and returns them signed in. */
  async createUser(username: string, quota: number): Promise<{ client: ApiClient; id: number }> {
    const client = await registerAndLogin(this.baseUrl, username)
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow()
    if (quota > 0) {
      const topUp = await this.root.post('/api/topup', { user_id: row.id, quota })
      expect(topUp.status, JSON.stringify(topUp.body)).toBe(200)
    }
    return { client, id: row.id }
  }

  /** The official client as a user configures it; no automatic retries so tests see every answer. */
  openai(key: string, options: { maxRetries?: number; timeout?: number } = {}): OpenAI {
    return new OpenAI({
      apiKey: key,
      baseURL: `${this.baseUrl}/v1`,
      maxRetries: options.maxRetries ?? 0,
      timeout: options.timeout,
    })
  }

  /**
   * A primary (priority 10) and a backup (priority 0) channel for `model`, with the keys
   * `sk-<model>-primary` and `sk-<model>-backup` (a fault can match either).
   */
  async addPrimaryAndBackup(model: string) {
    const primaryKey = `sk-${model}-primary`
    const backupKey = `sk-${model}-backup`
    const primary = await this.addChannel({ models: [model], key: primaryKey, priority: 10 })
    const backup = await this.addChannel({ models: [model], key: backupKey, priority: 0 })
    return { primary, backup, primaryKey, backupKey }
  }

  /** Waits until the channel whose `column` is `value` is disabled automatically (status 3). */
  async waitUntilAutoDisabled(column: 'key' | 'models', value: string): Promise<void> {
    await eventually(async () => {
      const row = await this.db
        .selectFrom('channels')
        .select('status')
        .where(column, '=', value)
        .executeTakeFirstOrThrow()
      return row.status === 3
    })
  }

  /** A token's balance as stored. */
  async tokenQuota(id: number) {
    return this.db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  }

  /** Requests the upstream received with this channel key. */
  requestsFor(channelKey: string): RecordedRequest[] {
    return this.mock.requests.filter((request) => request.headers.authorization === `Bearer ${channelKey}`)
  }

  /** The consume logs written so far (the buffered ones are flushed first). */
  async consumeLogs(filter: LogFilter = {}) {
    await this.server.context.relay.logWriter.flush()
    let query = this.server.context.logDb.selectFrom('logs').selectAll().where('type', '=', LogType.consume)
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId)
    if (filter.model !== undefined) query = query.where('model_name', '=', filter.model)
    if (filter.requestId !== undefined) query = query.where('request_id', '=', filter.requestId)
    const rows = await query.orderBy('id').execute()
    return rows.map((row) => ({ ...row, quota: Number(row.quota), is_stream: Boolean(row.is_stream) }))
  }

  /**
   * Waits until at least `count` consume logs match. The gateway settles a request and writes its
   * log just after the client got the answer, so a test reading balances must wait for this first;
   * settlement always precedes the log.
   */
  async waitForLogs(filter: LogFilter, count: number) {
    const deadline = Date.now() + LOG_WAIT_MS
    for (;;) {
      const rows = await this.consumeLogs(filter)
      if (rows.length >= count || Date.now() > deadline) return rows
      await sleep(20)
    }
  }

  /** The consume log of one request, by the id the gateway answered with. */
  async logFor(requestId: string | null | undefined) {
    expect(requestId, 'the response carries a request id').toBeTruthy()
    const [row] = await this.waitForLogs({ requestId: requestId ?? '' }, 1)
    expect(row, `a consume log for request ${requestId}`).toBeDefined()
    return row
  }

  async balances(userId: number, tokenId: number): Promise<Balances> {
    const user = await this.db
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    const token = await this.db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow()
    return {
      user: {
        quota: Number(user.quota),
        used_quota: Number(user.used_quota),
        request_count: Number(user.request_count),
      },
      token: { remain_quota: Number(token.remain_quota), used_quota: Number(token.used_quota) },
    }
  }

  async channelUsedQuota(channelId: number): Promise<number> {
    const row = await this.db
      .selectFrom('channels')
      .select('used_quota')
      .where('id', '=', channelId)
      .executeTakeFirstOrThrow()
    return Number(row.used_quota)
  }
}

/** What the `openai` client throws for an error answer, reduced to what tests compare. */
export async function relayFailure(call: Promise<unknown>) {
  try {
    await call
  } catch (error) {
    if (error instanceof OpenAI.APIError) {
      return {
        status: error.status,
        error: error.error as { message: string; type: string; param: string | null; code: string | null },
        requestId: error.headers?.get(REQUEST_ID) ?? undefined,
        upstreamRequestId: error.headers?.get('x-request-id') ?? undefined,
      }
    }
    throw error
  }
  throw new Error('the request succeeded but was expected to fail')
}

/**
 * One-api's quota formula, ceil((prompt + completion × completionRatio) × modelRatio ×
 * groupRatio), written out independently of the gateway's code. The rounding ignores floating-point
 * noise below 1e-9 so that 0.075 × 1000 costs 75, not 76.
 */
export function expectedQuota(
  prompt: number,
  completion: number,
  modelRatio: number,
  completionRatio: number,
  groupRatio = 1,
) {
  if (prompt + completion === 0) return 0
  const value = (prompt + completion * completionRatio) * modelRatio * groupRatio
  return Math.max(1, Math.ceil(value - 1e-9))
}
