import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { zhipuAdaptor } from './adaptor.ts'
import { ZHIPU_TOKEN_LIFETIME_MS, zhipuToken } from './jwt.ts'

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
const channel = { type: 16, key: 'adaptor-id.adaptor-secret' }

describe('Zhipu token', () => {
  it('is an HS256 JWT with sign_type SIGN, the key id and millisecond times, signed with the secret', () => {
    const now = 1_700_000_000_000
    const token = zhipuToken('jwt-id.jwt-secret', now)!
    const [header, claims, signature] = token.split('.')
    expect(decode(header!)).toEqual({ alg: 'HS256', sign_type: 'SIGN', typ: 'JWT' })
    expect(decode(claims!)).toEqual({ api_key: 'jwt-id', timestamp: now, exp: now + 24 * 3600 * 1000 })
    const expected = createHmac('sha256', 'jwt-secret').update(`${header}.${claims}`).digest('base64url')
    expect(signature).toBe(expected)
  })

  it('is reused for the same key until five minutes before it expires, then renewed', () => {
    const now = 1_700_000_000_000
    const first = zhipuToken('cache-id.cache-secret', now)
    expect(zhipuToken('cache-id.cache-secret', now + 60_000)).toBe(first)
    expect(zhipuToken('other-id.cache-secret', now)).not.toBe(first)
    const late = now + ZHIPU_TOKEN_LIFETIME_MS - 4 * 60_000
    const renewed = zhipuToken('cache-id.cache-secret', late)
    expect(renewed).not.toBe(first)
    expect(decode(renewed!.split('.')[1]!).timestamp).toBe(late)
  })

  it('refuses a key that is not id.secret, without sending anything', () => {
    for (const key of ['nodotkey', '.hiddenpart', 'visiblepart.']) {
      const built = zhipuAdaptor.buildRequest(jsonRelayRequest('chat', { model: 'glm-4', messages: [] }), {
        type: 16,
        key,
      })
      expect(built).toMatchObject({ kind: 'error', code: 'invalid_channel_key' })
      expect(JSON.stringify(built)).not.toContain(key.replace('.', ''))
    }
  })
})

describe('Zhipu requests', () => {
  it('is the adaptor of type 16', () => expect(getAdaptor(16)).toBe(zhipuAdaptor))

  it.each([
    ['chat', { model: 'glm-4', messages: [] }, '/api/paas/v4/chat/completions'],
    ['embeddings', { model: 'embedding-2', input: '你好' }, '/api/paas/v4/embeddings'],
    ['images', { model: 'cogview-3', prompt: '一只可爱的小猫咪' }, '/api/paas/v4/images/generations'],
  ] as const)('sends %s to its v4 path', (mode, body, path) => {
    const built = zhipuAdaptor.buildRequest(jsonRelayRequest(mode, body), channel)
    expect(built.kind === 'request' && built.url).toBe(`https://open.bigmodel.cn${path}`)
  })

  it('does not serve audio', () => {
    const built = zhipuAdaptor.buildRequest(
      jsonRelayRequest('audio-speech', { model: 'x', input: 'hi' }),
      channel,
    )
    expect(built).toMatchObject({ kind: 'error', status: 400, retryable: true })
  })
})
