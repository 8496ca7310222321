import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { hunyuanAdaptor } from './adaptor.ts'

const chat = jsonRelayRequest(
  'chat',
  { model: 'hunyuan-lite', messages: [{ role: 'user', content: 'hi' }] },
  {
    receivedAt: 1_716_000_000,
  },
)

describe('Tencent Hunyuan requests', () => {
  it('is the adaptor of type 23', () => expect(getAdaptor(23)).toBe(hunyuanAdaptor))

  it('signs with the SecretId of AppId|SecretId|SecretKey and the date of the request, and sends the region set', () => {
    const built = hunyuanAdaptor.buildRequest(chat, {
      type: 23,
      key: '1300000000|AKIDexample|secret-key-example',
      config: { region: 'ap-guangzhou' },
    })
    expect(built).toMatchObject({
      kind: 'request',
      url: 'https://hunyuan.tencentcloudapi.com/',
      headers: {
        'X-TC-Action': 'ChatCompletions',
        'X-TC-Version': '2023-09-01',
        'X-TC-Timestamp': '1716000000',
        'X-TC-Region': 'ap-guangzhou',
      },
    })
    const authorization = built.kind === 'request' ? built.headers.Authorization : ''
    expect(authorization).toContain('Credential=AKIDexample/2024-05-18/hunyuan/tc3_request')
    expect(authorization).not.toContain('secret-key-example')
  })

  it.each(['AKIDexample|secret', 'only-one-part', '1300000000||secret'])(
    'refuses the key %s without calling Tencent',
    (key) => {
      expect(hunyuanAdaptor.buildRequest(chat, { type: 23, key })).toMatchObject({
        kind: 'error',
        code: 'invalid_channel_key',
        retryable: true,
      })
    },
  )

  it('serves chat only', () => {
    const embeddings = jsonRelayRequest('embeddings', { model: 'hunyuan-embedding', input: 'hi' })
    expect(hunyuanAdaptor.buildRequest(embeddings, { type: 23, key: 'a|b|c' })).toMatchObject({
      kind: 'error',
      status: 400,
    })
  })
})
