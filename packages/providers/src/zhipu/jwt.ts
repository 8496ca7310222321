/**
 * Zhipu's authentication token: a JWT (HS256) signed with the secret half of the channel's
 * `id.secret` key, with the header member `sign_type: "SIGN"` and the claims `api_key` (the id),
 * `timestamp` and `exp` in milliseconds. One-api makes it valid for 24 hours and keeps it until
 * then; here it is reused until 5 minutes before its expiry, per key.
 * https://open.bigmodel.cn/dev/api/http-call/http-auth
 */
import { createHmac } from 'node:crypto'

export const ZHIPU_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000
const RENEW_BEFORE_MS = 5 * 60 * 1000
/** Keys whose token is kept; past this many the cache starts again (channels are few). */
const CACHE_LIMIT = 1000

const base64Url = (text: string | Buffer): string => Buffer.from(text).toString('base64url')

/** The id and the secret of an `id.secret` key, or undefined when the key is not of that form. */
export function splitZhipuKey(key: string): { id: string; secret: string } | undefined {
  const dot = key.indexOf('.')
  if (dot <= 0 || dot === key.length - 1) return undefined
  return { id: key.slice(0, dot), secret: key.slice(dot + 1) }
}

/** A fresh token for `key` issued at `nowMs`. */
export function signZhipuToken(id: string, secret: string, nowMs: number): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN', typ: 'JWT' }))
  const claims = base64Url(
    JSON.stringify({ api_key: id, exp: nowMs + ZHIPU_TOKEN_LIFETIME_MS, timestamp: nowMs }),
  )
  const signature = createHmac('sha256', secret).update(`${header}.${claims}`).digest('base64url')
  return `${header}.${claims}.${signature}`
}

const cache = new Map<string, { token: string; expiresAt: number }>()

/** The token for `key` at `nowMs`: the cached one while it has more than 5 minutes left. */
export function zhipuToken(key: string, nowMs: number): string | undefined {
  const parts = splitZhipuKey(key)
  if (!parts) return undefined
  const cached = cache.get(key)
  if (
    cached &&
    nowMs < cached.expiresAt - RENEW_BEFORE_MS &&
    nowMs >= cached.expiresAt - ZHIPU_TOKEN_LIFETIME_MS
  ) {
    return cached.token
  }
  const token = signZhipuToken(parts.id, parts.secret, nowMs)
  if (cache.size >= CACHE_LIMIT) cache.clear()
  cache.set(key, { token, expiresAt: nowMs + ZHIPU_TOKEN_LIFETIME_MS })
  return token
}
