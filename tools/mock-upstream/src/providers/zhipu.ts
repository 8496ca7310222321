/**
 * Zhipu's authentication as the v4 API checks it: the Authorization header holds a JWT (alone or
 * after `Bearer `) whose header is HS256 with sign_type SIGN, whose `api_key` names a known key
 * id, whose signature is the HMAC-SHA256 of its first two parts under that key's secret, and
 * whose `exp` (milliseconds) is still ahead. Refusals use Zhipu's error codes.
 * https://open.bigmodel.cn/dev/api/http-call/http-auth
 * https://open.bigmodel.cn/dev/api/error-code/service-error
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { ZHIPU_KEYS } from './credentials.ts'

const secrets = new Map(
  ZHIPU_KEYS.map((key) => [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)]),
)

export interface Refusal {
  readonly status: number
  readonly body: string
}

const zhipuRefusal = (code: string, message: string): Refusal => ({
  status: 401,
  body: JSON.stringify({ error: { code, message } }),
})

const decode = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

export function refuseZhipuAuth(headers: IncomingHttpHeaders, nowMs = Date.now()): Refusal | undefined {
  const raw = headers.authorization
  if (!raw) return zhipuRefusal('1001', 'Header中未收到Authorization参数，无法进行身份验证。')
  const token = raw.replace(/^Bearer\s+/i, '')
  const [header, claims, signature, extra] = token.split('.')
  const head = header ? decode(header) : undefined
  const body = claims ? decode(claims) : undefined
  if (
    !head ||
    !body ||
    !signature ||
    extra !== undefined ||
    head.alg !== 'HS256' ||
    head.sign_type !== 'SIGN'
  ) {
    return zhipuRefusal('1002', 'Authorization Token非法，请确认Authorization Token正确传递。')
  }
  const secret = secrets.get(String(body.api_key))
  if (!secret) return zhipuRefusal('1000', '身份验证失败。')
  const expected = createHmac('sha256', secret).update(`${header}.${claims}`).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return zhipuRefusal('1004', 'Authorization Token验证失败。')
  }
  if (typeof body.exp !== 'number' || body.exp <= nowMs)
    return zhipuRefusal('1003', 'Authorization Token已过期。')
  return undefined
}
