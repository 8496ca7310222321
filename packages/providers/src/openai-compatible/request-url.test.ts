import { describe, expect, it } from 'vitest'
import type { ChannelCredentials, RelayMode } from '../adaptor.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { openAiCompatibleAdaptor } from './adaptor.ts'

const urlFor = (
  channel: ChannelCredentials,
  mode: RelayMode = 'chat',
  model = 'gpt-4o-mini',
  path?: string,
) => {
  const request = jsonRelayRequest(mode, { model }, path ? { path } : {})
  const built = openAiCompatibleAdaptor.buildRequest(request, channel)
  return built.kind === 'request' ? built.url : `error ${built.status}: ${built.message}`
}

describe('upstream URL rules', () => {
  it('joins the default base URL and the incoming path, query included', () => {
    expect(urlFor({ type: 1, key: 'k' })).toBe('https://api.openai.com/v1/chat/completions')
    expect(urlFor({ type: 36, key: 'k' })).toBe('https://api.deepseek.com/v1/chat/completions')
    expect(urlFor({ type: 29, key: 'k' }, 'embeddings')).toBe('https://api.groq.com/openai/v1/embeddings')
    expect(urlFor({ type: 1, key: 'k' }, 'chat', 'm', '/v1/chat/completions?x=1')).toBe(
      'https://api.openai.com/v1/chat/completions?x=1',
    )
  })

  it('uses the channel base URL without doubling slashes', () => {
    expect(urlFor({ type: 8, key: 'k', baseUrl: 'http://127.0.0.1:4000/' })).toBe(
      'http://127.0.0.1:4000/v1/chat/completions',
    )
  })

  it('trims /v1 from the path for SDK-style base URLs (types 50 and 51)', () => {
    expect(urlFor({ type: 50, key: 'k', baseUrl: 'https://host.example/v1' })).toBe(
      'https://host.example/v1/chat/completions',
    )
    expect(urlFor({ type: 51, key: 'k' }, 'embeddings')).toBe(
      'https://generativelanguage.googleapis.com/v1beta/openai/embeddings',
    )
  })

  it('refuses channels that need a base URL and have none', () => {
    expect(urlFor({ type: 50, key: 'k' })).toMatch(/^error 500/)
    expect(urlFor({ type: 3, key: 'k', baseUrl: '' })).toMatch(/^error 500/)
  })

  it('builds Azure deployment URLs with dots removed and the api-version', () => {
    const azure = {
      type: 3,
      key: 'k',
      baseUrl: 'https://res.openai.azure.com',
      config: { api_version: '2024-06-01' },
    }
    expect(urlFor(azure, 'chat', 'gpt-3.5-turbo')).toBe(
      'https://res.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-06-01',
    )
    expect(
      urlFor({ ...azure, config: {}, other: '2023-05-15' }, 'embeddings', 'text-embedding-3-small'),
    ).toBe(
      'https://res.openai.azure.com/openai/deployments/text-embedding-3-small/embeddings?api-version=2023-05-15',
    )
    expect(urlFor({ ...azure, config: {} }, 'images', 'dall-e-3')).toMatch(
      /\/openai\/deployments\/dall-e-3\/images\/generations\?api-version=2024-03-01-preview$/,
    )
  })

  it('follows the custom URL rules of Minimax, Doubao, Novita, Baidu V2 and Bailian', () => {
    expect(urlFor({ type: 27, key: 'k' })).toBe('https://api.minimax.chat/v1/text/chatcompletion_v2')
    expect(urlFor({ type: 27, key: 'k' }, 'embeddings')).toMatch(/^error 400/)
    expect(urlFor({ type: 40, key: 'k' })).toBe('https://ark.cn-beijing.volces.com/api/v3/chat/completions')
    expect(urlFor({ type: 40, key: 'k' }, 'embeddings')).toBe(
      'https://ark.cn-beijing.volces.com/api/v3/embeddings',
    )
    expect(urlFor({ type: 41, key: 'k' })).toBe('https://api.novita.ai/v3/openai/chat/completions')
    expect(urlFor({ type: 47, key: 'k' })).toBe('https://qianfan.baidubce.com/v2/chat/completions')
    expect(urlFor({ type: 49, key: 'k' }, 'embeddings')).toBe(
      'https://dashscope.aliyuncs.com/compatible-mode/v1/embeddings',
    )
    expect(urlFor({ type: 49, key: 'k' }, 'images')).toMatch(/^error 400/)
  })

  it('strips /v1 for OpenAI channels behind Cloudflare AI Gateway', () => {
    const base = 'https://gateway.ai.cloudflare.com/v1/account/gateway/openai'
    expect(urlFor({ type: 1, key: 'k', baseUrl: base })).toBe(`${base}/chat/completions`)
  })
})

describe('upstream headers', () => {
  const headersFor = (channel: ChannelCredentials, stream = false) => {
    const request = jsonRelayRequest('chat', { model: 'm', stream })
    const built = openAiCompatibleAdaptor.buildRequest(request, channel)
    if (built.kind !== 'request') throw new Error(built.message)
    return built.headers
  }

  it('sends the channel key as a Bearer token and copies Content-Type and Accept', () => {
    expect(headersFor({ type: 1, key: 'sk-abc' })).toEqual({
      Authorization: 'Bearer sk-abc',
      'Content-Type': 'application/json',
      Accept: 'application/json',
    })
  })

  it('asks for an event stream when streaming', () => {
    expect(headersFor({ type: 1, key: 'k' }, true).Accept).toBe('text/event-stream')
  })

  it('uses api-key for Azure and the ranking headers for OpenRouter', () => {
    const azure = headersFor({ type: 3, key: 'azure-key', baseUrl: 'https://r.openai.azure.com' })
    expect(azure['api-key']).toBe('azure-key')
    expect(azure.Authorization).toBeUndefined()
    expect(headersFor({ type: 20, key: 'k' })).toMatchObject({
      'X-Title': 'One API',
      Authorization: 'Bearer k',
    })
  })
})
