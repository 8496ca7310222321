/**
 * The Vertex AI adaptor against the mock upstream over real HTTP: its token exchange (a JWT signed
 * with a service account made for the test, checked by the mock's token endpoint with the public
 * key) and Claude's rawPredict and streamRawPredict with the token it yields.
 */
import { type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelCredentials, CredentialExchange, RelayRequest, UpstreamRequest } from '../adaptor.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { testServiceAccount } from '../testing/service-account.ts'
import { vertexAdaptor } from './adaptor.ts'

let mock: MockUpstream
let channel: ChannelCredentials
let account: ReturnType<typeof testServiceAccount>
beforeAll(async () => {
  mock = await startMockUpstream()
  account = testServiceAccount(`${mock.url}/token`)
  mock.vertex.addServiceAccount(account.email, account.publicKey)
  channel = {
    type: 42,
    key: '',
    baseUrl: mock.url,
    config: { region: 'us-east5', vertex_ai_project_id: 'mock-project', vertex_ai_adc: account.adc },
  }
})
afterAll(() => mock.close())

const now = () => Math.floor(Date.now() / 1000)

async function send(built: UpstreamRequest) {
  const response = await fetch(built.url, {
    method: 'POST',
    headers: built.headers,
    body: built.body as string,
  })
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  }
}

/** What the pipeline does: the exchange, its answer parsed into the token. */
async function exchange(target = channel, at = now()) {
  const made = vertexAdaptor.credentialExchange!(target, at) as CredentialExchange
  expect(made.kind).toBe('exchange')
  return made.parse(await send(made.request))
}

async function tokenFor(target = channel) {
  const result = await exchange(target)
  if (result.kind !== 'credential') throw new Error(result.message)
  return result.token
}

const chat = (body: Record<string, unknown> = {}): RelayRequest =>
  jsonRelayRequest('chat', {
    model: 'claude-3-5-haiku@20241022',
    messages: [
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'one two three four' },
    ],
    ...body,
  })

describe('Vertex AI adaptor against the mock upstream', () => {
  it('exchanges a signed assertion for a token that expires in an hour', async () => {
    const before = now()
    const result = await exchange()
    expect(result).toMatchObject({ kind: 'credential', token: expect.stringMatching(/^ya29\./) })
    expect((result as { expiresAt: number }).expiresAt).toBeGreaterThanOrEqual(before + 3599)
    const call = mock.requests.at(-1)!
    expect(call.path).toBe('/token')
    expect(call.body.toString()).toMatch(
      /^grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=/,
    )
  })

  it('is refused by the token endpoint when the key is not the account’s: the channel is disabled', async () => {
    const other = testServiceAccount(`${mock.url}/token`, 'unknown@mock-project.iam.gserviceaccount.com')
    // The account's email with another key pair's private key: the signature does not verify.
    const forged = {
      ...channel,
      config: { ...channel.config, vertex_ai_adc: other.adc.replace(other.email, account.email) },
    }
    expect(await exchange(forged)).toMatchObject({
      kind: 'error',
      code: 'invalid_grant',
      disableChannel: true,
    })
    // An account Google does not know.
    expect(
      await exchange({ ...channel, config: { ...channel.config, vertex_ai_adc: other.adc } }),
    ).toMatchObject({
      kind: 'error',
      code: 'invalid_client',
      disableChannel: true,
    })
  })

  it('is refused an assertion signed at a stale time', async () => {
    expect(await exchange(channel, now() - 7200)).toMatchObject({ kind: 'error', code: 'invalid_grant' })
  })

  it('calls Claude with rawPredict, the bearer token and vertex-2023-10-16, and reads the answer', async () => {
    const token = await tokenFor()
    const built = vertexAdaptor.buildRequest(chat(), { ...channel, accessToken: token }) as UpstreamRequest
    const { status, headers, body } = await send(built)
    expect(status).toBe(200)
    const call = mock.requests.at(-1)!
    expect(call.path).toBe(
      '/v1/projects/mock-project/locations/us-east5/publishers/anthropic/models/claude-3-5-haiku@20241022:rawPredict',
    )
    expect(call.headers.authorization).toBe(`Bearer ${token}`)
    expect(call.json).toMatchObject({
      anthropic_version: 'vertex-2023-10-16',
      system: 'Be brief',
      max_tokens: 4096,
    })
    expect(call.json).not.toHaveProperty('model')
    const parsed = vertexAdaptor.parseResponse({ status, headers, body }, chat())
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(JSON.parse(parsed.body.toString()).choices[0].message.content).toBe('Hello from the mock upstream')
    expect(parsed.usage).toMatchObject({ promptTokens: 6, completionTokens: 5 })
  })

  it('streams Claude with streamRawPredict into OpenAI chunks', async () => {
    const request = chat({ stream: true })
    const built = vertexAdaptor.buildRequest(request, {
      ...channel,
      accessToken: await tokenFor(),
    }) as UpstreamRequest
    const { status, body } = await send(built)
    expect(status).toBe(200)
    expect(mock.requests.at(-1)!.path).toMatch(/:streamRawPredict$/)
    const transformer = vertexAdaptor.createStreamTransformer(request, built)
    const output = transformer.push(body) + transformer.finish()
    const text = output
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice(6)).choices[0]?.delta?.content ?? '')
      .join('')
    expect(text).toBe('Hello from the mock upstream')
    expect(output.trimEnd().endsWith('data: [DONE]')).toBe(true)
  })

  it('embeds with predict and bills the token counts; gemini-embedding-001 takes one text per request', async () => {
    const token = await tokenFor()
    const embed = (model: string, input: string | string[]) =>
      jsonRelayRequest('embeddings', { model, input, dimensions: 4, encoding_format: 'float' })
    const request = embed('text-embedding-005', ['one two three', 'four'])
    const built = vertexAdaptor.buildRequest(request, { ...channel, accessToken: token }) as UpstreamRequest
    const parsed = vertexAdaptor.parseResponse(await send(built), request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(mock.requests.at(-1)!.path).toBe(
      '/v1/projects/mock-project/locations/us-east5/publishers/google/models/text-embedding-005:predict',
    )
    const list = JSON.parse(parsed.body.toString()) as { data: { embedding: number[] }[] }
    expect(list.data.map((item) => item.embedding.length)).toEqual([4, 4])
    expect(parsed.usage).toMatchObject({ promptTokens: 4, totalTokens: 4 })
    const many = embed('gemini-embedding-001', ['one', 'two'])
    const refused = vertexAdaptor.buildRequest(many, { ...channel, accessToken: token }) as UpstreamRequest
    expect(vertexAdaptor.parseResponse(await send(refused), many)).toMatchObject({
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      retryable: false,
    })
  })

  it('is refused with a token the endpoint did not issue or revoked: an error that renews the token', async () => {
    const token = await tokenFor()
    mock.vertex.revokeTokens()
    const built = vertexAdaptor.buildRequest(chat(), { ...channel, accessToken: token }) as UpstreamRequest
    const { status, headers, body } = await send(built)
    expect(status).toBe(401)
    expect(vertexAdaptor.parseResponse({ status, headers, body }, chat())).toMatchObject({
      kind: 'error',
      disableChannel: true,
    })
  })
})
