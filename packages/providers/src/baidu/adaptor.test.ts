import { describe, expect, it } from 'vitest'
import type { CredentialExchange } from '../adaptor.ts'
import { getAdaptor } from '../registry.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { baiduAdaptor } from './adaptor.ts'

const channel = { type: 15, key: 'ak-example|sk-example' }
const exchange = () => baiduAdaptor.credentialExchange!(channel, 1_700_000_000) as CredentialExchange
const answer = (status: number, body: unknown) => ({
  status,
  headers: {},
  body: Buffer.from(JSON.stringify(body)),
})

describe('Baidu Qianfan v1 credentials', () => {
  it('is the adaptor of type 15', () => expect(getAdaptor(15)).toBe(baiduAdaptor))

  it('asks the OAuth endpoint for a client-credentials token, cached under a digest of the key', () => {
    const { request, cacheKey } = exchange()
    const url = new URL(request.url)
    expect(`${url.origin}${url.pathname}`).toBe('https://aip.baidubce.com/oauth/2.0/token')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      grant_type: 'client_credentials',
      client_id: 'ak-example',
      client_secret: 'sk-example',
    })
    expect(cacheKey).not.toContain('sk-example')
  })

  it('reads the token and its lifetime, and classifies a refusal as a dead channel', () => {
    expect(exchange().parse(answer(200, { access_token: '24.abc', expires_in: 2592000 }))).toEqual({
      kind: 'credential',
      token: '24.abc',
      expiresAt: 1_700_000_000 + 2592000,
    })
    const refused = exchange().parse(
      answer(401, { error: 'invalid_client', error_description: 'unknown client id' }),
    )
    expect(refused).toMatchObject({ kind: 'error', disableChannel: true, code: 'invalid_client' })
    expect(exchange().parse(answer(500, {}))).toMatchObject({
      kind: 'error',
      disableChannel: false,
      retryable: true,
    })
  })

  it('refuses a key that is not APIKey|SecretKey without any call', () => {
    expect(baiduAdaptor.credentialExchange!({ type: 15, key: 'just-one-part' }, 0)).toMatchObject({
      kind: 'error',
      disableChannel: true,
    })
  })

  it.each([
    ['ERNIE-4.0-8K', 'chat/completions_pro'],
    ['ERNIE-Speed-128K', 'chat/ernie-speed-128k'],
    ['My-Custom-Deployment', 'chat/my-custom-deployment'],
  ])('sends %s to %s', (model, endpoint) => {
    const built = baiduAdaptor.buildRequest(jsonRelayRequest('chat', { model, messages: [] }), {
      ...channel,
      accessToken: '24.token',
    })
    expect(built.kind === 'request' && built.url).toBe(
      `https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/${endpoint}?access_token=24.token`,
    )
  })

  it('maps frequency_penalty, max_tokens and user to Baidu names', () => {
    const request = jsonRelayRequest('chat', {
      model: 'ERNIE-3.5-8K',
      messages: [{ role: 'user', content: 'hi' }],
      frequency_penalty: 1.5,
      max_tokens: 100,
      user: 'u1',
    })
    const built = baiduAdaptor.buildRequest(request, { ...channel, accessToken: 't' })
    expect(JSON.parse(String(built.kind === 'request' && built.body))).toMatchObject({
      penalty_score: 1.5,
      max_output_tokens: 100,
      user_id: 'u1',
    })
  })
})
