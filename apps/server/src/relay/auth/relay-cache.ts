import { BlockList, isIP } from 'node:net'
import { TokenStatus, UserStatus } from '@one-api/contracts'
import type { Kysely } from 'kysely'
import type { MainSchema } from '../../db/schema.ts'
import { toBoolean } from '../../db/schema.ts'
import { BusTopic } from '../../platform/bus-topics.ts'
import type { EventBus } from '../../platform/event-bus.ts'

/** What token authentication needs of a token, cached in memory (quota is checked by the ledger). */
export interface CachedToken {
  id: number
  userId: number
  key: string
  name: string
  status: number
  expiredTime: number
  remainQuota: number
  unlimitedQuota: boolean
  /** Allowed models, or undefined when any model is allowed. */
  models?: Set<string>
  /** Allowed client networks, or undefined when any address is allowed. */
  subnets?: BlockList
}

export interface CachedUser {
  id: number
  username: string
  status: number
  role: number
  group: string
}

interface Entry<T> {
  value: T | undefined
  expiresAt: number
}

const MISSING_TTL_MS = 5_000
const MAX_ENTRIES = 100_000

/**
 * Token and user lookups for the relay with no database round trip when cached. Every change
 * made through the management API is announced on the event bus (token key / user id) and drops
 * the entry on every node, so a disabled token stops working at once; the TTL is only a safety net.
 */
export class RelayCache {
  private readonly tokens = new Map<string, Entry<CachedToken>>()
  private readonly users = new Map<number, Entry<CachedUser>>()
  /**
   * Counts the changes announced so far. A row read while a change was announced may be the row
   * from before it: it is used for the request that asked, but not cached, or a disabled token
   * could work until the TTL runs out.
   */
  private tokenChanges = 0
  private userChanges = 0

  constructor(
    private readonly db: Kysely<MainSchema>,
    private readonly bus: EventBus,
    private readonly ttlMs: number,
    /** Reports what failed in the background (recordExpiry). */
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    bus.subscribe(BusTopic.tokenChanged, (key) => {
      this.tokenChanges += 1
      if (key === '*') this.tokens.clear()
      // A key read from PostgreSQL's char(48) column comes padded with spaces; the cache holds it
      // as clients send it.
      else this.tokens.delete(key.replace(/^sk-/, '').trimEnd())
    })
    bus.subscribe(BusTopic.userChanged, (id) => {
      this.userChanges += 1
      if (id === '*') this.users.clear()
      else this.users.delete(Number(id))
    })
  }

  /** The token of `key`: at once when cached (found or known missing), else read from the database. */
  token(key: string): CachedToken | undefined | Promise<CachedToken | undefined> {
    const cached = this.tokens.get(key)
    if (cached && cached.expiresAt > Date.now()) return cached.value
    return this.loadToken(key)
  }

  /** The user `id`: at once when cached (found or known missing), else read from the database. */
  user(id: number): CachedUser | undefined | Promise<CachedUser | undefined> {
    const cached = this.users.get(id)
    if (cached && cached.expiresAt > Date.now()) return cached.value
    return this.loadUser(id)
  }

  /**
   * Records on an enabled token's row that it has expired (status 3), as one-api does, so the
   * console shows why the relay refuses it. A conditional update: it happens once, and not if the
   * expiry was moved meanwhile; the change is announced like any other. Nobody waits for it: a
   * failure goes to `onError`. (Exhaustion is not recorded: a token at 0 may get quota back when a
   * request in flight is refunded, and a status 4 would then lock it until re-enabled by hand.)
   */
  recordExpiry(token: CachedToken): void {
    const now = Math.floor(Date.now() / 1000)
    this.db
      .updateTable('tokens')
      .set({ status: TokenStatus.expired })
      .where('id', '=', token.id)
      .where('status', '=', TokenStatus.enabled)
      .where('expired_time', '!=', -1)
      .where('expired_time', '<', now)
      .executeTakeFirst()
      .then(async (result) => {
        if (Number(result.numUpdatedRows) > 0)
          await this.bus.publish(BusTopic.tokenChanged, token.key, `token #${token.id}`)
      })
      .catch(this.onError)
  }

  private async loadToken(key: string): Promise<CachedToken | undefined> {
    const changes = this.tokenChanges
    const row = await this.db.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirst()
    const value = row
      ? {
          id: row.id,
          userId: row.user_id,
          key: row.key.trimEnd(),
          name: row.name ?? '',
          status: row.status,
          expiredTime: Number(row.expired_time),
          remainQuota: Number(row.remain_quota),
          unlimitedQuota: toBoolean(row.unlimited_quota),
          models: parseModels(row.models),
          subnets: parseSubnets(row.subnet),
        }
      : undefined
    if (changes === this.tokenChanges) this.remember(this.tokens, key, value)
    return value
  }

  private async loadUser(id: number): Promise<CachedUser | undefined> {
    const changes = this.userChanges
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'status', 'role', 'group'])
      .where('id', '=', id)
      .executeTakeFirst()
    const value = row
      ? {
          id: row.id,
          username: row.username,
          status: row.status,
          role: row.role,
          group: row.group || 'default',
        }
      : undefined
    if (changes === this.userChanges) this.remember(this.users, id, value)
    return value
  }

  private remember<K, T>(map: Map<K, Entry<T>>, key: K, value: T | undefined): void {
    if (map.size >= MAX_ENTRIES) map.clear()
    map.set(key, { value, expiresAt: Date.now() + (value ? this.ttlMs : MISSING_TTL_MS) })
  }
}

export function isUserEnabled(user: CachedUser | undefined): user is CachedUser {
  return user !== undefined && user.status === UserStatus.enabled
}

function parseModels(models: string | null): Set<string> | undefined {
  const list = (models ?? '')
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean)
  return list.length > 0 ? new Set(list) : undefined
}

function parseSubnets(subnet: string | null): BlockList | undefined {
  const entries = (subnet ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length === 0) return undefined
  const list = new BlockList()
  for (const entry of entries) {
    const [address, prefix] = entry.split('/')
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (!isIP(address)) continue
    if (prefix === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(prefix), family)
  }
  return list
}
