/**
 * Tokens obtained through Adaptor.credentialExchange, kept in this process per channel and
 * credential until shortly before they expire. At most one exchange per key is in flight: the
 * requests that need a token meanwhile wait for it. Tokens never leave this memory (no logs, no
 * answers).
 */
import type { CredentialExchange, UpstreamError } from '@one-api/providers'
import { isUpstreamError, transportError } from '@one-api/providers'
import type { StreamedResponse } from './streamed-response.ts'
import { readWholeBody } from './streamed-response.ts'
import type { UpstreamCall } from './upstream-call.ts'

/** A token is renewed this long before it expires, or halfway through its life if that is sooner. */
const RENEW_MARGIN_SECONDS = 300
/** How long an exchange may take. */
const EXCHANGE_TIMEOUT_MS = 30_000
/** Past this many entries, expired ones are swept when a new one is stored. */
const SWEEP_ABOVE = 1000

export interface CachedToken {
  kind: 'token'
  token: string
  /** True when this call made the exchange (a token just issued is not retried with a new one). */
  fresh: boolean
}

interface Entry {
  kind: 'credential'
  token: string
  /** Unix seconds after which the token is renewed before use. */
  renewAt: number
  expiresAt: number
}

type Send = (call: UpstreamCall) => Promise<StreamedResponse>

export class CredentialCache {
  private readonly tokens = new Map<string, Entry>()
  private readonly inFlight = new Map<string, Promise<Entry | UpstreamError>>()

  constructor(
    private readonly send: Send,
    private readonly clock: () => number = () => Date.now() / 1000,
  ) {}

  /** The token for `channelId`'s credential: the cached one while it is good, else a new one. */
  async token(channelId: number, exchange: CredentialExchange): Promise<CachedToken | UpstreamError> {
    const key = `${channelId}|${exchange.cacheKey}`
    const cached = this.tokens.get(key)
    if (cached && this.clock() < cached.renewAt) return { kind: 'token', token: cached.token, fresh: false }
    let pending = this.inFlight.get(key)
    if (!pending) {
      pending = this.exchange(key, exchange).finally(() => this.inFlight.delete(key))
      this.inFlight.set(key, pending)
    }
    const entry = await pending
    return isUpstreamError(entry) ? entry : { kind: 'token', token: entry.token, fresh: true }
  }

  /** Forgets the token the upstream refused, unless a newer one replaced it meanwhile. */
  drop(channelId: number, exchange: CredentialExchange, token: string): void {
    const key = `${channelId}|${exchange.cacheKey}`
    if (this.tokens.get(key)?.token === token) this.tokens.delete(key)
  }

  get size(): number {
    return this.tokens.size
  }

  private async exchange(key: string, exchange: CredentialExchange): Promise<Entry | UpstreamError> {
    const { request } = exchange
    let status: number
    let headers: StreamedResponse['headers']
    let body: Buffer
    try {
      const response = await this.send({
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.method === 'GET' ? undefined : request.body,
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
      })
      status = response.statusCode
      headers = response.headers
      body = await readWholeBody(response.body)
    } catch (error) {
      return transportError(error)
    }
    const parsed = exchange.parse({ status, headers, body })
    if (isUpstreamError(parsed)) return parsed
    const now = this.clock()
    const life = Math.max(0, parsed.expiresAt - now)
    const entry: Entry = {
      kind: 'credential',
      token: parsed.token,
      expiresAt: parsed.expiresAt,
      renewAt: parsed.expiresAt - Math.min(RENEW_MARGIN_SECONDS, life / 2),
    }
    this.store(key, entry, now)
    return entry
  }

  private store(key: string, entry: Entry, now: number): void {
    if (this.tokens.size >= SWEEP_ABOVE) {
      for (const [old, value] of this.tokens) if (value.expiresAt <= now) this.tokens.delete(old)
    }
    this.tokens.set(key, entry)
  }
}
