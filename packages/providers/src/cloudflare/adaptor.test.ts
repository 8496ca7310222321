import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { cloudflareAdaptor } from './adaptor.ts'

const chat = jsonRelayRequest('chat', { model: '@cf/meta/llama-3.1-8b-instruct', messages: [] })
const embeddings = jsonRelayRequest('embeddings', { model: '@cf/baai/bge-base-en-v1.5', input: 'hi' })
const channel = { type: 37, key: 'cf-token', config: { user_id: 'acct123' } }
const urlOf = (built: ReturnType<typeof cloudflareAdaptor.buildRequest>) =>
  built.kind === 'request' ? built.url : built

describe('Cloudflare Workers AI requests', () => {
  it('is the adaptor of type 37', () => expect(getAdaptor(37)).toBe(cloudflareAdaptor))

  it('calls the account OpenAI-compatible endpoints', () => {
    expect(urlOf(cloudflareAdaptor.buildRequest(chat, channel))).toBe(
      'https://api.cloudflare.com/client/v4/accounts/acct123/ai/v1/chat/completions',
    )
    expect(urlOf(cloudflareAdaptor.buildRequest(embeddings, channel))).toBe(
      'https://api.cloudflare.com/client/v4/accounts/acct123/ai/v1/embeddings',
    )
  })

  it('uses an AI Gateway base URL as the prefix itself', () => {
    const baseUrl = 'https://gateway.ai.cloudflare.com/v1/acct123/my-gateway/workers-ai'
    expect(urlOf(cloudflareAdaptor.buildRequest(chat, { ...channel, baseUrl }))).toBe(
      `${baseUrl}/v1/chat/completions`,
    )
  })

  it('needs the account id, and serves chat and embeddings only', () => {
    expect(cloudflareAdaptor.buildRequest(chat, { type: 37, key: 'cf-token' })).toMatchObject({
      kind: 'error',
      code: 'channel_config_missing',
    })
    const speech = jsonRelayRequest('audio-speech', { model: 'x', input: 'hi' })
    expect(cloudflareAdaptor.buildRequest(speech, channel)).toMatchObject({ kind: 'error', status: 400 })
  })
})
