/**
 * The adaptor against the mock upstream over real HTTP: what the relay pipeline will do, minus
 * billing. (Tests may use fetch; the pipeline itself uses undici.)
 */
import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelCredentials, RelayRequest, UpstreamRequest } from '../adaptor.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { openAiCompatibleAdaptor as adaptor } from './adaptor.ts'

let mock: MockUpstream
let channel: ChannelCredentials
beforeAll(async () => {
  mock = await startMockUpstream({ apiKeys: ['sk-upstream'] })
  channel = { type: 8, key: 'sk-upstream', baseUrl: mock.url }
})
afterAll(() => mock.close())

const build = (request: RelayRequest, target = channel): UpstreamRequest => {
  const built = adaptor.buildRequest(request, target)
  if (built.kind !== 'request') throw new Error(built.message)
  return built
}

async function call(request: RelayRequest, target = channel) {
  const built = build(request, target)
  const response = await fetch(built.url, {
    method: built.method,
    headers: built.headers,
    body: typeof built.body === 'string' ? built.body : new Uint8Array(built.body),
  })
  const headers = Object.fromEntries(response.headers)
  return { built, response, headers }
}

async function relayStream(request: RelayRequest) {
  const { built, response } = await call(request)
  const transformer = adaptor.createStreamTransformer(request, built)
  let output = ''
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
      output += transformer.push(Buffer.from(chunk))
  } catch {
    // a cut upstream: the pipeline ends the client stream with what it has
  }
  output += transformer.finish()
  return { transformer, output }
}

const messages = [{ role: 'user', content: 'one two three four' }]

describe('OpenAI-compatible adaptor against the mock upstream', () => {
  it('relays a chat completion and reads its usage', async () => {
    const request = jsonRelayRequest('chat', { model: 'gpt-4o-mini', messages })
    const { response, headers } = await call(request)
    const parsed = adaptor.parseResponse(
      { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) },
      request,
    )
    expect(parsed).toMatchObject({
      kind: 'response',
      usage: { promptTokens: 4, completionTokens: 5, totalTokens: 9 },
    })
  })

  it('gets stream usage the client did not ask for, without showing it the usage chunk', async () => {
    const request = jsonRelayRequest('chat', { model: 'gpt-4o-mini', messages, stream: true })
    const { transformer, output } = await relayStream(request)
    expect(mock.requests.at(-1)?.json?.stream_options).toEqual({ include_usage: true })
    expect(output).not.toContain('"usage":{')
    expect(output.endsWith('data: [DONE]\n\n')).toBe(true)
    expect(transformer.usage).toMatchObject({ promptTokens: 4, completionTokens: 5 })
    expect(transformer.completionText).toBe('Hello from the mock upstream')
  })

  it('applies model mapping and reports the mapped model upstream', async () => {
    const request = jsonRelayRequest(
      'chat',
      { model: 'public-name', messages },
      { mappedModel: 'gpt-4o-mini' },
    )
    const { response } = await call(request)
    expect((await response.json()).model).toBe('gpt-4o-mini')
  })

  it('reports a cut stream as not completed, with the text so far', async () => {
    const request = jsonRelayRequest('chat', { model: 'gpt-4o-mini+cut-after=3', messages, stream: true })
    const { transformer, output } = await relayStream(request)
    expect(transformer.upstreamCompleted).toBe(false)
    expect(transformer.usage).toBeUndefined()
    expect(transformer.completionText).toBe('Hello from')
    expect(output.match(/data: \[DONE\]/g)).toHaveLength(1)
  })

  it('maps upstream failures for the retry policy', async () => {
    for (const [status, retryable, disableChannel] of [
      [429, true, false],
      [503, true, false],
      [400, false, false],
      [404, false, false],
    ] as const) {
      const request = jsonRelayRequest('chat', { model: `gpt-4o-mini+status=${status}`, messages })
      const { response, headers } = await call(request)
      const parsed = adaptor.parseResponse(
        { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) },
        request,
      )
      expect(parsed).toMatchObject({ kind: 'error', status, retryable, disableChannel })
    }
    const wrongKey = await call(jsonRelayRequest('chat', { model: 'gpt-4o-mini', messages }), {
      ...channel,
      key: 'sk-revoked',
    })
    const body = Buffer.from(await wrongKey.response.arrayBuffer())
    const parsed = adaptor.parseResponse(
      { status: wrongKey.response.status, headers: wrongKey.headers, body },
      jsonRelayRequest('chat', {}),
    )
    expect(parsed).toMatchObject({
      kind: 'error',
      status: 401,
      code: 'invalid_api_key',
      disableChannel: true,
    })
  })

  it('reaches the mock as an Azure deployment and as an SDK-style base URL', async () => {
    const azure = { type: 3, key: 'sk-upstream', baseUrl: mock.url, config: { api_version: '2024-10-21' } }
    const request = jsonRelayRequest('embeddings', { model: 'text-embedding-3.small', input: 'a b' })
    const { response } = await call(request, azure)
    expect(response.status).toBe(200)
    expect(mock.requests.at(-1)?.path).toBe(
      '/openai/deployments/text-embedding-3small/embeddings?api-version=2024-10-21',
    )
    expect(mock.requests.at(-1)?.headers['api-key']).toBe('sk-upstream')
    const sdkStyle = { type: 50, key: 'sk-upstream', baseUrl: `${mock.url}/v1/` }
    expect((await call(jsonRelayRequest('chat', { model: 'm', messages }), sdkStyle)).response.status).toBe(
      200,
    )
    expect(mock.requests.at(-1)?.path).toBe('/v1/chat/completions')
  })
})
