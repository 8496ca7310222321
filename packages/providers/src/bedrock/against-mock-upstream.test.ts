/**
 * The Bedrock adaptor against the mock upstream over real HTTP: the mock recomputes the SigV4
 * signature with AWS's own signer (@smithy/signature-v4) and encodes its streams with AWS's own
 * event stream codec, so these prove the signing and the frame decoding against AWS's code.
 */
import { MOCK_AWS_CREDENTIALS, type MockUpstream, startMockUpstream } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelCredentials, RelayRequest } from '../adaptor.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { bedrockAdaptor } from './adaptor.ts'

const [accessKey, secretKey] = Object.entries(MOCK_AWS_CREDENTIALS)[0]!
let mock: MockUpstream
let channel: ChannelCredentials
beforeAll(async () => {
  mock = await startMockUpstream()
  channel = { type: 33, key: `${accessKey}|${secretKey}|us-east-1`, baseUrl: mock.url }
})
afterAll(() => mock.close())

const now = () => Math.floor(Date.now() / 1000)

async function call(request: RelayRequest, target = channel) {
  const built = bedrockAdaptor.buildRequest(request, target)
  if (built.kind !== 'request') throw new Error(built.message)
  const response = await fetch(built.url, {
    method: 'POST',
    headers: built.headers,
    body: built.body as string,
  })
  const body = Buffer.from(await response.arrayBuffer())
  return { built, status: response.status, headers: Object.fromEntries(response.headers), body }
}

const chat = (body: Record<string, unknown> = {}, model = 'claude-3-5-haiku-20241022') =>
  jsonRelayRequest(
    'chat',
    {
      model,
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'one two three four' },
      ],
      ...body,
    },
    { receivedAt: now() },
  )

describe('Bedrock adaptor against the mock upstream', () => {
  it('signs a Converse call the way AWS checks it, with the model id mapped as one-api maps it', async () => {
    const { status, body } = await call(chat())
    expect(status).toBe(200)
    const upstream = mock.requests.at(-1)!
    expect(upstream.path).toBe('/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse')
    expect(upstream.headers.authorization).toMatch(
      new RegExp(`^AWS4-HMAC-SHA256 Credential=${accessKey}/\\d{8}/us-east-1/bedrock/aws4_request, `),
    )
    expect(upstream.json).toMatchObject({
      system: [{ text: 'Be brief' }],
      messages: [{ role: 'user', content: [{ text: 'one two three four' }] }],
    })
    const parsed = bedrockAdaptor.parseResponse({ status, headers: {}, body }, chat())
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(JSON.parse(parsed.body.toString()).choices[0].message.content).toBe('Hello from the mock upstream')
    expect(parsed.usage).toMatchObject({ promptTokens: 6, completionTokens: 5, totalTokens: 11 })
  })

  it('takes the config fields ak, sk and region over the key, and maps Llama 3 names', async () => {
    const config = { ak: accessKey, sk: secretKey, region: 'eu-west-3' }
    const { status } = await call(chat({}, 'llama3-8b-8192'), { ...channel, key: 'unused', config })
    expect(status).toBe(200)
    const upstream = mock.requests.at(-1)!
    expect(upstream.path).toBe('/model/meta.llama3-8b-instruct-v1%3A0/converse')
    expect(upstream.headers.authorization).toContain('/eu-west-3/bedrock/aws4_request')
  })

  it('decodes the ConverseStream event stream into OpenAI chunks', async () => {
    const request = chat({ stream: true, stream_options: { include_usage: true } })
    const { built, status, headers, body } = await call(request)
    expect(status).toBe(200)
    expect(headers['content-type']).toBe('application/vnd.amazon.eventstream')
    expect(mock.requests.at(-1)!.path).toMatch(/\/converse-stream$/)
    const transformer = bedrockAdaptor.createStreamTransformer(request, built)
    let output = ''
    for (let offset = 0; offset < body.length; offset += 5)
      output += transformer.push(body.subarray(offset, offset + 5))
    output += transformer.finish()
    const events = output
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.slice('data: '.length))
    expect(events.at(-1)).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event))
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')
    expect(text).toBe('Hello from the mock upstream')
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop')
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 5, total_tokens: 11 })
    expect(transformer.upstreamCompleted).toBe(true)
  })

  it('is refused as AWS refuses a wrong secret key: the channel is disabled', async () => {
    const { status, headers, body } = await call(chat(), {
      ...channel,
      key: `${accessKey}|wrong-secret|us-east-1`,
    })
    expect(status).toBe(403)
    const error = bedrockAdaptor.parseResponse({ status, headers, body }, chat())
    expect(error).toMatchObject({ kind: 'error', code: 'InvalidSignatureException', disableChannel: true })
  })

  it('is refused as AWS refuses an unknown access key: the channel is disabled', async () => {
    const { status, headers, body } = await call(chat(), { ...channel, key: 'AKIAUNKNOWN|secret|us-east-1' })
    const error = bedrockAdaptor.parseResponse({ status, headers, body }, chat())
    expect(error).toMatchObject({ kind: 'error', code: 'UnrecognizedClientException', disableChannel: true })
  })

  it('is refused when the body was changed after signing', async () => {
    const built = bedrockAdaptor.buildRequest(chat(), channel)
    if (built.kind !== 'request') throw new Error(built.message)
    const response = await fetch(built.url, {
      method: 'POST',
      headers: built.headers,
      body: String(built.body).replace('four', 'five'),
    })
    expect(response.status).toBe(403)
    expect(response.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException:/)
  })

  it('maps a throttled call to a retry on another channel', async () => {
    const { status, headers, body } = await call(chat({}, 'anthropic.claude-mock+status=429'))
    expect(mock.requests.at(-1)!.path).toBe('/model/anthropic.claude-mock%2Bstatus%3D429/converse')
    const error = bedrockAdaptor.parseResponse({ status, headers, body }, chat())
    expect(error).toMatchObject({
      status: 429,
      code: 'ThrottlingException',
      retryable: true,
      disableChannel: false,
    })
  })
})
