/**
 * The Anthropic adaptors against the mock upstream over real HTTP: the mock checks Anthropic's
 * headers, so these prove the adaptors send them. (Tests may use fetch; the pipeline uses undici.)
 */
import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Adaptor, ChannelCredentials, RelayRequest } from '../adaptor.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { anthropicAdaptor, anthropicNativeAdaptor } from './adaptor.ts'

let mock: MockUpstream
let channel: ChannelCredentials
beforeAll(async () => {
  mock = await startMockUpstream({ apiKeys: ['sk-ant-upstream'] })
  channel = { type: 14, key: 'sk-ant-upstream', baseUrl: mock.url }
})
afterAll(() => mock.close())

async function call(adaptor: Adaptor, request: RelayRequest, target = channel) {
  const built = adaptor.buildRequest(request, target)
  if (built.kind !== 'request') throw new Error(built.message)
  const response = await fetch(built.url, {
    method: 'POST',
    headers: built.headers,
    body: built.body as string,
  })
  const body = Buffer.from(await response.arrayBuffer())
  const headers = Object.fromEntries(response.headers)
  return { built, status: response.status, headers, body }
}

const chat = (body: Record<string, unknown> = {}) =>
  jsonRelayRequest('chat', {
    model: 'claude-3-5-haiku-latest',
    messages: [
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'one two three four' },
    ],
    ...body,
  })

describe('Anthropic adaptor against the mock upstream', () => {
  it('is answered, with x-api-key and anthropic-version sent and no bearer header', async () => {
    const { status, body } = await call(anthropicAdaptor, chat())
    expect(status).toBe(200)
    const upstream = mock.requests.at(-1)!
    expect(upstream.headers['x-api-key']).toBe('sk-ant-upstream')
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01')
    expect(upstream.headers.authorization).toBeUndefined()
    expect(upstream.json).toMatchObject({ system: 'Be brief', max_tokens: 4096 })
    const parsed = anthropicAdaptor.parseResponse({ status, headers: {}, body }, chat())
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(JSON.parse(parsed.body.toString()).choices[0].message.content).toBe('Hello from the mock upstream')
    // Six words: the system prompt's two and the user's four.
    expect(parsed.usage).toMatchObject({ promptTokens: 6, completionTokens: 5 })
  })

  it('is refused as Anthropic refuses a wrong key: a 401 that disables the channel', async () => {
    const { status, headers, body } = await call(anthropicAdaptor, chat(), { ...channel, key: 'sk-wrong' })
    const error = anthropicAdaptor.parseResponse({ status, headers, body }, chat())
    expect(error).toMatchObject({
      kind: 'error',
      status: 401,
      type: 'authentication_error',
      disableChannel: true,
    })
  })

  it('reads the cache reads and writes of a stream, priced as Anthropic prices them', async () => {
    const request = chat({
      stream: true,
      model: 'claude-3-5-haiku-latest+cached-tokens=3+cache-write-tokens=2',
    })
    const { built, body } = await call(anthropicAdaptor, request)
    const transformer = anthropicAdaptor.createStreamTransformer(request, built)
    const output = transformer.push(body) + transformer.finish()
    expect(output.endsWith('data: [DONE]\n\n')).toBe(true)
    expect(transformer.usage).toMatchObject({
      promptTokens: 6,
      cachedTokens: 3,
      cacheWriteTokens: 2,
      cacheReadRatio: 0.1,
      cacheWriteRatio: 1.25,
    })
  })

  it('passes a Messages request through for a Messages client, with the mapped model', async () => {
    const native = { model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'hi there' }] }
    const request = jsonRelayRequest(
      'chat',
      {},
      {
        clientApi: 'anthropic',
        native: { json: native, body: Buffer.from(JSON.stringify(native)) },
        mappedModel: 'claude-3-5-haiku-latest',
      },
    )
    const { status, headers, body } = await call(anthropicNativeAdaptor, request)
    expect(mock.requests.at(-1)!.json).toEqual({ ...native, model: 'claude-3-5-haiku-latest' })
    const parsed = anthropicNativeAdaptor.parseResponse({ status, headers, body }, request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(parsed.body).toBe(body)
    expect(JSON.parse(body.toString()).type).toBe('message')
    expect(parsed.usage).toMatchObject({ promptTokens: 2, completionTokens: 5 })
  })
})
