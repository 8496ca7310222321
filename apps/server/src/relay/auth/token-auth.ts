import { Role, TokenStatus } from '@one-api/contracts'
import { readChannelId } from './channel-id.ts'
import { type CachedToken, type CachedUser, isUserEnabled, type RelayCache } from './relay-cache.ts'
import { RelayError } from './relay-error.ts'

export interface RelayCaller {
  token: CachedToken
  user: CachedUser
  /** Set when an administrator pinned a channel with `sk-<key>-<channelId>`. */
  pinnedChannelId?: number
}

/** An Authorization header read: the token key, and the channel part of `sk-<key>-<channelId>`. */
interface ApiKey {
  key: string
  channelPart?: string
}

/**
 * Headers already read. A client sends the same header with every request, so reading it once
 * spares the relay two regular expressions and a split per request. Only well-formed keys in
 * headers of a plausible length are kept (padding could make each entry kilobytes), and the map
 * starts over when full.
 */
const readHeaders = new Map<string, ApiKey>()
const READ_HEADERS_LIMIT = 10_000
/** `Bearer sk-` + a 48-character key + `-` + a channel id, with room to spare. */
const READ_HEADER_MAX_LENGTH = 128

function readApiKey(authorization: string | undefined): ApiKey {
  const header = authorization ?? ''
  const known = readHeaders.get(header)
  if (known) return known
  const raw = header
    .replace(/^Bearer\s+/i, '')
    .trim()
    .replace(/^sk-/, '')
  if (!raw)
    throw new RelayError(
      401,
      'No API key provided: send Authorization: Bearer sk-…',
      'missing_api_key',
      'invalid_request_error',
    )
  const [key, channelPart] = raw.split('-')
  if (!/^[A-Za-z0-9]{1,48}$/.test(key!)) throw invalidKey()
  const read: ApiKey = { key: key!, channelPart }
  if (header.length <= READ_HEADER_MAX_LENGTH) {
    if (readHeaders.size >= READ_HEADERS_LIMIT) readHeaders.clear()
    readHeaders.set(header, read)
  }
  return read
}

/**
 * Token authentication, as one-api's: `Authorization: Bearer sk-<key>[-<channelId>]`.
 * Token quota is not judged here but by the ledger's atomic reservation. Answers at once when the
 * token and its user are cached (the usual case: no promise to wait for), else once they are read.
 */
export function authenticateRelay(
  cache: RelayCache,
  authorization: string | undefined,
  clientIp: string,
): RelayCaller | Promise<RelayCaller> {
  const apiKey = readApiKey(authorization)
  const token = cache.token(apiKey.key)
  if (token instanceof Promise)
    return token.then((found) => authenticateToken(cache, found, apiKey, clientIp))
  return authenticateToken(cache, token, apiKey, clientIp)
}

function authenticateToken(
  cache: RelayCache,
  token: CachedToken | undefined,
  apiKey: ApiKey,
  clientIp: string,
): RelayCaller | Promise<RelayCaller> {
  checkToken(cache, token, clientIp)
  const user = cache.user(token.userId)
  if (user instanceof Promise) return user.then((found) => callerOf(token, found, apiKey))
  return callerOf(token, user, apiKey)
}

function checkToken(
  cache: RelayCache,
  token: CachedToken | undefined,
  clientIp: string,
): asserts token is CachedToken {
  if (!token) throw invalidKey()
  if (token.status === TokenStatus.exhausted) {
    throw new RelayError(
      401,
      `The quota of token ${token.name} (#${token.id}) is used up`,
      'token_quota_exhausted',
    )
  }
  if (token.status === TokenStatus.expired) throw tokenExpired()
  if (token.expiredTime !== -1 && token.expiredTime < Date.now() / 1000) {
    if (token.status === TokenStatus.enabled) cache.recordExpiry(token)
    throw tokenExpired()
  }
  if (token.status !== TokenStatus.enabled)
    throw new RelayError(401, 'This token is disabled', 'token_disabled')
  if (
    token.subnets &&
    !token.subnets.check(
      normalizeIp(clientIp),
      clientIp.includes(':') && !clientIp.startsWith('::ffff:') ? 'ipv6' : 'ipv4',
    )
  ) {
    throw new RelayError(403, `This token may not be used from ${clientIp}`, 'ip_not_allowed')
  }
}

const tokenExpired = () => new RelayError(401, 'This token has expired', 'token_expired')

function callerOf(token: CachedToken, user: CachedUser | undefined, apiKey: ApiKey): RelayCaller {
  if (!isUserEnabled(user))
    throw new RelayError(403, 'The account of this token is disabled', 'user_disabled')
  const { channelPart } = apiKey
  if (channelPart === undefined) return { token, user, pinnedChannelId: undefined }
  if (user.role < Role.Admin)
    throw new RelayError(403, 'Only administrators may pin a channel', 'channel_pinning_forbidden')
  return { token, user, pinnedChannelId: readChannelId(channelPart) }
}

export function checkModelAllowed(token: CachedToken, model: string): void {
  if (token.models && !token.models.has(model)) {
    throw new RelayError(
      403,
      `This token may not use the model ${model}`,
      'model_not_allowed',
      'invalid_request_error',
    )
  }
}

function invalidKey(): RelayError {
  return new RelayError(401, 'Invalid API key', 'invalid_api_key', 'invalid_request_error')
}

function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip
}
