/**
 * Xunfei Spark v1 channels (type 18) through the whole gateway, driven by the official `openai`
 * client: the gateway opens a WebSocket to the mock, which recomputes the URL's HMAC signature
 * and refuses a wrong one; the frames come back as OpenAI answers and streams, billed from the
 * last frame's usage. Tools go as Spark's functions and its function call comes back as an OpenAI
 * tool call.
 */
import { SPARK_MOCK_KEY } from '@one-api/mock-upstream'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const XUNFEI = 18
const MODEL = 'Spark-Max'
const REFUSED = 'Spark-Lite'
const RATIO = 10
const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'one two three four' }] }
const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The weather at a place',
      parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
    },
  },
]

describe.each(testDialects())('Xunfei Spark channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ type: XUNFEI, key: SPARK_MOCK_KEY, models: [MODEL] })
    // The right APPID and APIKey with a wrong APISecret: the signature does not match.
    const [appId, , apiKey] = SPARK_MOCK_KEY.split('|')
    await fixture.addChannel({ type: XUNFEI, key: `${appId}|wrong-secret|${apiKey}`, models: [REFUSED] })
    await fixture.setPrices({ [MODEL]: RATIO, [REFUSED]: RATIO }, { [MODEL]: 1 })
    const token = await fixture.createToken({ remain_quota: 10_000_000 })
    client = fixture.openai(token.key, { maxRetries: 0 })
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers chat gathered from the signed WebSocket, billed from the last frame usage', async () => {
    const { data, response } = await client.chat.completions.create(ask).withResponse()
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream')
    expect(data.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 4, completion_tokens: 5, quota: 9 * RATIO })
  })

  it('streams the frames as they come, with the usage chunk the client asked for', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask, stream: true, stream_options: { include_usage: true } })
      .withResponse()
    const { pieces, usage } = await readChatStream(stream)
    expect(pieces).toEqual(['Hello', ' from', ' the', ' mock', ' upstream'])
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })

  it('is refused at the handshake with a wrong secret, and the client is told the channel is unavailable', async () => {
    const failure = await relayFailure(client.chat.completions.create({ ...ask, model: REFUSED }))
    expect(failure.status).toBe(503)
    expect(failure.error.code).toBe('channel_unavailable')
  })

  it('sends tools as Spark functions and answers its function call as a tool call, billed', async () => {
    const { data, response } = await client.chat.completions.create({ ...ask, tools }).withResponse()
    const choice = data.choices[0]!
    expect(choice.finish_reason).toBe('tool_calls')
    const call = choice.message.tool_calls![0]!
    expect(call.type).toBe('function')
    if (call.type !== 'function') return
    expect(call.function.name).toBe('get_weather')
    expect(JSON.parse(call.function.arguments)).toEqual({ mock: true })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: MODEL, prompt_tokens: 4, completion_tokens: 5, quota: 9 * RATIO })
  })

  it('streams the function call as a tool call chunk', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ ...ask, tools, stream: true })
      .withResponse()
    const { toolName: name, toolArguments: args, finish } = await readChatStream(stream)
    expect([name, JSON.parse(args), finish]).toEqual(['get_weather', { mock: true }, 'tool_calls'])
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ is_stream: true, quota: 9 * RATIO })
  })
})
