/**
 * AWS Bedrock channels (type 33) through the whole gateway, driven by the official `openai` and
 * `@anthropic-ai/sdk` clients: the mock upstream checks every SigV4 signature with AWS's own
 * signer and streams AWS event stream frames; answers are OpenAI's (or Anthropic's, for
 * `/v1/messages`), the bill prices the prompt cache, and failures follow the retry and
 * auto-disable policy.
 */
import Anthropic from '@anthropic-ai/sdk'
import { ChannelType } from '@one-api/contracts/channel-types'
import { MOCK_AWS_CREDENTIALS } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const [[ACCESS_KEY, SECRET_KEY], [FAILING_KEY, FAILING_SECRET]] = Object.entries(MOCK_AWS_CREDENTIALS) as [
  [string, string],
  [string, string],
]
// One-api's name, mapped to its Bedrock id by the adaptor.
const MAPPED = 'claude-3-5-haiku-20241022'
const LLAMA = 'llama3-8b-8192'
// Bedrock ids pass as they are; the mock reads its directives from them.
const PLAIN = 'anthropic.claude-e2e'
const CACHED = 'anthropic.claude-e2e-cache+cached-tokens=2+cache-write-tokens=1'
const FAILING = 'anthropic.claude-e2e-failover'
const BAD_KEY = 'anthropic.claude-e2e-bad-key'
const RATIO = 10
const GENERATED = 'Hello from the mock upstream'
const ask = (model: string) => ({
  model,
  messages: [{ role: 'user' as const, content: 'one two three four' }],
})

describe.each(testDialects())('AWS Bedrock channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let token: { id: number; key: string }
  let signedChannel: number
  const signedWith = (accessKey: string) =>
    fixture.mock.requests.filter((call) =>
      String(call.headers.authorization).includes(`Credential=${accessKey}/`),
    )

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect, { CHANNEL_DISABLE_FAILURE_COUNT: '1' })
    signedChannel = await fixture.addChannel({
      type: ChannelType.aws,
      key: `${ACCESS_KEY}|${SECRET_KEY}|us-east-1`,
      models: [MAPPED, LLAMA, PLAIN, CACHED],
    })
    await fixture.addChannel({
      type: ChannelType.aws,
      key: `${FAILING_KEY}|${FAILING_SECRET}|us-west-2`,
      models: [FAILING],
      priority: 10,
    })
    await fixture.addChannel({ key: 'sk-openai-backup', models: [FAILING, BAD_KEY], priority: 0 })
    await fixture.addChannel({
      type: ChannelType.aws,
      key: `${ACCESS_KEY}|not-the-secret|us-east-1`,
      models: [BAD_KEY],
      priority: 10,
    })
    // One-api prices Llama on Bedrock under its own key, `name(33)`, which wins over the plain name.
    const models = [MAPPED, LLAMA, `${LLAMA}(33)`, PLAIN, CACHED, FAILING, BAD_KEY]
    await fixture.priceModels(models, RATIO)
    await fixture.setOption('AutomaticDisableChannelEnabled', true)
    await fixture.setOption('RetryTimes', 2)
    token = await fixture.createToken({ remain_quota: 1_000_000 })
    client = fixture.openai(token.key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers in OpenAI format through a signed Converse call, and bills and logs the usage', async () => {
    const before = await fixture.tokenQuota(token.id)
    const { data, response } = await client.chat.completions.create(ask(MAPPED)).withResponse()
    expect(data.object).toBe('chat.completion')
    expect(data.choices[0]!.message.content).toBe(GENERATED)
    expect(data.choices[0]!.finish_reason).toBe('stop')
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    const upstream = signedWith(ACCESS_KEY).at(-1)!
    expect(upstream.path).toBe('/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse')
    expect(upstream.headers.authorization).toContain('/us-east-1/bedrock/aws4_request')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: MAPPED,
      prompt_tokens: 4,
      completion_tokens: 5,
      quota: 9 * RATIO,
    })
    const after = await fixture.tokenQuota(token.id)
    expect(Number(before.remain_quota) - Number(after.remain_quota)).toBe(9 * RATIO)
  })

  it('prices cache reads at a tenth and cache writes at 1.25 times the input price', async () => {
    const { data, response } = await client.chat.completions.create(ask(CACHED)).withResponse()
    expect(data.usage?.prompt_tokens_details?.cached_tokens).toBe(2)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    // 1 uncached + 2 read × 0.1 + 1 written × 1.25 + 5 output, at ratio 10.
    expect(log.quota).toBe(Math.ceil((1 + 0.2 + 1.25 + 5) * RATIO))
    expect(log.prompt_tokens).toBe(4)
  })

  it('streams ConverseStream frames as OpenAI chunks with the usage the client asked for', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask(PLAIN), stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { pieces, usage } = await readChatStream(stream)
    expect(pieces.join('')).toBe(GENERATED)
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    expect(signedWith(ACCESS_KEY).at(-1)!.path).toMatch(/\/converse-stream$/)
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('translates tools, and streams the tool call back as OpenAI tool call deltas', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
    ]
    const stream = await client.chat.completions.create({ ...ask(PLAIN), tools, stream: true })
    const { toolName: name, toolArguments: args, finish } = await readChatStream(stream)
    expect({ name, args: JSON.parse(args), finish }).toEqual({
      name: 'lookup',
      args: { mock: true },
      finish: 'tool_calls',
    })
    expect(signedWith(ACCESS_KEY).at(-1)!.json).toMatchObject({
      toolConfig: { tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }] },
    })
  })

  it('relays /v1/messages clients (the Anthropic SDK) natively to Claude through InvokeModel', async () => {
    const anthropic = new Anthropic({ baseURL: fixture.baseUrl, apiKey: token.key, maxRetries: 0 })
    const { data: message, response } = await anthropic.messages
      .create({
        model: MAPPED,
        max_tokens: 100,
        system: 'Be brief',
        messages: [{ role: 'user', content: 'one two three four' }],
      })
      .withResponse()
    expect(message.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(message.usage).toMatchObject({ input_tokens: 6, output_tokens: 5 })
    const call = signedWith(ACCESS_KEY).at(-1)!
    expect(call.path).toBe('/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke')
    // The client's own body, without the model (it is in the URL) and with Bedrock's version.
    expect(call.json).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 100,
      system: 'Be brief',
      messages: [{ role: 'user', content: 'one two three four' }],
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: MAPPED,
      prompt_tokens: 6,
      completion_tokens: 5,
      quota: 11 * RATIO,
    })
    const stream = anthropic.messages.stream({
      model: MAPPED,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    })
    const final = await stream.finalMessage()
    expect(final.content).toEqual([{ type: 'text', text: GENERATED }])
    expect(final.stop_reason).toBe('end_turn')
    expect(final.usage).toMatchObject({ input_tokens: 1, output_tokens: 5 })
    expect(signedWith(ACCESS_KEY).at(-1)!.path).toMatch(/\/invoke-with-response-stream$/)
  })

  it('serves /v1/messages clients asking for Llama through the Converse bridge, streamed, billed and logged', async () => {
    const anthropic = new Anthropic({ baseURL: fixture.baseUrl, apiKey: token.key, maxRetries: 0 })
    // top_k is Claude's own: sent to Llama, Bedrock would refuse the request (the mock does).
    const ask = { model: LLAMA, max_tokens: 100, system: 'Be brief', top_k: 5, temperature: 0.3 }
    const { data: message, response } = await anthropic.messages
      .create({ ...ask, messages: [{ role: 'user', content: 'one two three four' }] })
      .withResponse()
    expect(message).toMatchObject({
      content: [{ type: 'text', text: GENERATED }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 6, output_tokens: 5 },
    })
    const call = signedWith(ACCESS_KEY).at(-1)!
    expect(call.path).toBe('/model/meta.llama3-8b-instruct-v1%3A0/converse')
    expect(call.json).toMatchObject({
      system: [{ text: 'Be brief' }],
      messages: [{ role: 'user', content: [{ text: 'one two three four' }] }],
      inferenceConfig: { maxTokens: 100, temperature: 0.3 },
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: LLAMA,
      prompt_tokens: 6,
      completion_tokens: 5,
      quota: 11 * RATIO,
    })
    expect(log.content).toContain('input API: Anthropic Messages')
    const { data: stream, response: streamed } = await anthropic.messages
      .stream({ ...ask, messages: [{ role: 'user', content: 'one two three four' }] })
      .withResponse()
    const final = await stream.finalMessage()
    expect(final).toMatchObject({
      content: [{ type: 'text', text: GENERATED }],
      stop_reason: 'end_turn',
      usage: { output_tokens: 5 },
    })
    expect(signedWith(ACCESS_KEY).at(-1)!.path).toBe('/model/meta.llama3-8b-instruct-v1%3A0/converse-stream')
    const streamLog = await fixture.logFor(streamed.headers.get(REQUEST_ID))
    expect(streamLog).toMatchObject({ model_name: LLAMA, is_stream: true, quota: 11 * RATIO })
  })

  it('returns Bedrock refusing tools for Llama 3 to a /v1/messages client as a 400, not billed', async () => {
    const anthropic = new Anthropic({ baseURL: fixture.baseUrl, apiKey: token.key, maxRetries: 0 })
    const before = await fixture.tokenQuota(token.id)
    const failure = await anthropic.messages
      .create({
        model: LLAMA,
        max_tokens: 100,
        tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} } }],
        messages: [{ role: 'user', content: 'look it up' }],
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    if (!(failure instanceof Anthropic.APIError)) throw new Error('the request was expected to fail')
    expect(failure.status).toBe(400)
    expect(failure.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
    expect(failure.message).toContain("doesn't support tool use")
    expect(await fixture.tokenQuota(token.id)).toEqual(before)
  })

  it('tests a Bedrock channel from the console with a request signed at the time of the test', async () => {
    const result = await fixture.root.get(`/api/channel/test/${signedChannel}?model=${MAPPED}`)
    expect(result.body).toMatchObject({ success: true, model: MAPPED, message: GENERATED })
    expect(signedWith(ACCESS_KEY).at(-1)!.path).toBe(
      '/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse',
    )
  })

  it('returns a ValidationException as a 400, without trying another channel', async () => {
    fixture.mock.addFault({ match: { keyContains: FAILING_KEY }, status: 400, times: 1 })
    const backupCalls = fixture.requestsFor('sk-openai-backup').length
    const failure = await relayFailure(client.chat.completions.create(ask(FAILING)))
    expect(failure.status).toBe(400)
    expect(failure.error.type).toBe('invalid_request_error')
    expect(failure.error.message).toContain('Malformed input request')
    expect(fixture.requestsFor('sk-openai-backup').length).toBe(backupCalls)
  })

  it('fails over on ThrottlingException and on 5xx', async () => {
    const backupCalls = fixture.requestsFor('sk-openai-backup').length
    for (const status of [429, 500, 503]) {
      fixture.mock.addFault({ match: { keyContains: FAILING_KEY }, status, times: 1 })
      const completion = await client.chat.completions.create(ask(FAILING))
      expect(completion.choices[0]!.message.content).toBe(GENERATED)
    }
    expect(fixture.requestsFor('sk-openai-backup').length).toBe(backupCalls + 3)
  })

  it('disables a channel whose signature AWS refuses (a wrong secret key), and serves from the next one', async () => {
    const refusedBefore = signedWith(ACCESS_KEY).length
    const completion = await client.chat.completions.create(ask(BAD_KEY))
    expect(completion.choices[0]!.message.content).toBe(GENERATED)
    expect(signedWith(ACCESS_KEY).length).toBe(refusedBefore + 1)
    await fixture.waitUntilAutoDisabled('key', `${ACCESS_KEY}|not-the-secret|us-east-1`)
  })
})
