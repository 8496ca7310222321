/**
 * `POST /v1/responses` (OpenAI's Responses API) through the whole gateway, driven by the official
 * `openai` client: passed through to an OpenAI channel, translated to chat completions for an
 * Anthropic channel and an OpenAI-compatible one, billed and logged as chat completions with the
 * input API noted, errors in OpenAI's shape.
 */
import { ChannelType } from '@one-api/contracts/channel-types'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectedQuota, REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const PASSED = 'gpt-resp-passed'
const ON_ANTHROPIC = 'claude-resp-translated'
const ON_COMPATIBLE = 'gpt-resp-compatible'
const FAILOVER = 'gpt-resp-failover'
const ON_AZURE = 'gpt-4.1-resp-azure'
const GENERATED = 'Hello from the mock upstream'
const RATIO = 10
const tools: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'lookup',
    description: 'Looks a thing up',
    parameters: { type: 'object', properties: {} },
    strict: false,
  },
]

describe.each(testDialects())('the Responses API through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI
  let tokenId: number
  let userId: number

  const lastCall = (header: string, value: string) =>
    fixture.mock.requests.filter((call) => call.headers[header] === value).at(-1)!

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({
      type: ChannelType.openAI,
      key: 'sk-openai-resp',
      models: [PASSED, FAILOVER],
      model_mapping: { [PASSED]: 'gpt-4o-mini' },
      priority: 10,
    })
    await fixture.addChannel({
      type: ChannelType.anthropic,
      key: 'sk-ant-resp',
      models: [ON_ANTHROPIC],
      model_mapping: { [ON_ANTHROPIC]: 'claude-3-5-haiku-latest' },
    })
    await fixture.addChannel({ key: 'sk-compatible-resp', models: [ON_COMPATIBLE, FAILOVER] })
    await fixture.addChannel({
      type: ChannelType.azure,
      key: 'azure-resp-key',
      models: [ON_AZURE],
      model_mapping: { [ON_AZURE]: 'gpt-4.1' },
    })
    const models = ['gpt-4o-mini', 'claude-3-5-haiku-latest', ON_COMPATIBLE, FAILOVER, 'gpt-4.1']
    await fixture.priceModels(models, RATIO)
    await fixture.setOption('RetryTimes', 2)
    const token = await fixture.createToken()
    tokenId = token.id
    client = fixture.openai(token.key)
    const me = await fixture.db
      .selectFrom('tokens')
      .select('user_id')
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow()
    userId = me.user_id
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('passes a request through to an OpenAI channel, billed from its usage and logged with its input API', async () => {
    const before = await fixture.balances(userId, tokenId)
    const { data, response } = await client.responses
      .create({
        model: PASSED,
        instructions: 'Be brief',
        input: 'one two three four',
        max_output_tokens: 100,
      })
      .withResponse()
    expect(data.object).toBe('response')
    expect(data.output_text).toBe(GENERATED)
    expect(data.usage).toMatchObject({ input_tokens: 4, output_tokens: 5, total_tokens: 9 })
    // The client's own body went upstream, to /v1/responses, with the channel's model and key.
    const upstream = lastCall('authorization', 'Bearer sk-openai-resp')
    expect(upstream.path).toBe('/v1/responses')
    expect(upstream.json).toEqual({
      model: 'gpt-4o-mini',
      instructions: 'Be brief',
      input: 'one two three four',
      max_output_tokens: 100,
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: 'gpt-4o-mini', prompt_tokens: 4, completion_tokens: 5 })
    expect(log.quota).toBe(expectedQuota(4, 5, RATIO, 1))
    expect(log.content).toContain('input API: OpenAI Responses')
    const after = await fixture.balances(userId, tokenId)
    expect(after.token.used_quota - before.token.used_quota).toBe(log.quota)
    expect(after.user.used_quota - before.user.used_quota).toBe(log.quota)
  })

  it("passes a request through to Azure's v1 Responses API, the deployment as the model", async () => {
    const { data, response } = await client.responses
      .create({ model: ON_AZURE, input: 'one two' })
      .withResponse()
    expect(data.output_text).toBe(GENERATED)
    const upstream = lastCall('api-key', 'azure-resp-key')
    expect(upstream.path).toBe('/openai/v1/responses')
    expect(upstream.json).toEqual({ model: 'gpt-41', input: 'one two' })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: 'gpt-4.1', prompt_tokens: 2, completion_tokens: 5 })
  })

  it('streams through an OpenAI channel, usage read from response.completed', async () => {
    const stream = await client.responses
      .create({ model: PASSED, input: 'one two three', stream: true })
      .withResponse()
    const types: string[] = []
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of stream.data) {
      types.push(event.type)
      if (event.type === 'response.completed') completed = event.response
    }
    expect(types[0]).toBe('response.created')
    expect(completed?.output_text ?? completed?.output).toBeDefined()
    expect(completed?.usage).toMatchObject({ input_tokens: 3, output_tokens: 5 })
    const log = await fixture.logFor(stream.response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, is_stream: true })
    expect(log.quota).toBe(expectedQuota(3, 5, RATIO, 1))
  })

  it('translates for an Anthropic channel: the Response built from its message, billed and logged', async () => {
    const { data, response } = await client.responses
      .create({
        model: ON_ANTHROPIC,
        instructions: 'Be brief',
        input: 'one two three four',
        max_output_tokens: 50,
      })
      .withResponse()
    expect(data).toMatchObject({ object: 'response', status: 'completed', model: 'claude-3-5-haiku-latest' })
    expect(data.output_text).toBe(GENERATED)
    const upstream = lastCall('x-api-key', 'sk-ant-resp')
    expect(upstream.path).toBe('/v1/messages')
    expect(upstream.json).toMatchObject({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 50,
      system: 'Be brief',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'one two three four' }] }],
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: 'claude-3-5-haiku-latest',
      prompt_tokens: data.usage!.input_tokens,
      completion_tokens: data.usage!.output_tokens,
    })
    expect(data.usage!.output_tokens).toBe(5)
    expect(log.quota).toBe(expectedQuota(data.usage!.input_tokens, 5, RATIO, 1))
    expect(log.content).toContain('input API: OpenAI Responses')
  })

  it('streams from an Anthropic channel as Responses events the client assembles', async () => {
    const stream = client.responses.stream({ model: ON_ANTHROPIC, input: 'one two three four' })
    const deltas: string[] = []
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta))
    const final = await stream.finalResponse()
    expect(deltas.join('')).toBe(GENERATED)
    expect(final.output_text).toBe(GENERATED)
    expect(final.status).toBe('completed')
    expect(final.usage?.output_tokens).toBe(5)
    // The same stream read raw: its consume log bills the usage the Response reported.
    const raw = await client.responses
      .create({ model: ON_ANTHROPIC, input: 'one two three four', stream: true })
      .withResponse()
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of raw.data) if (event.type === 'response.completed') completed = event.response
    const log = await fixture.logFor(raw.response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({
      model_name: 'claude-3-5-haiku-latest',
      is_stream: true,
      prompt_tokens: completed!.usage!.input_tokens,
      completion_tokens: 5,
    })
    expect(log.quota).toBe(expectedQuota(completed!.usage!.input_tokens, 5, RATIO, 1))
    expect(log.content).toContain('input API: OpenAI Responses')
  })

  it('returns function calls from every kind of channel, streamed too, and takes their outputs back', async () => {
    for (const model of [PASSED, ON_ANTHROPIC, ON_COMPATIBLE]) {
      const response = await client.responses.create({ model, input: 'find it', tools })
      const call = response.output.find((item) => item.type === 'function_call')
      expect(call, model).toMatchObject({ type: 'function_call', name: 'lookup', arguments: '{"mock":true}' })
      const streamed = await client.responses.stream({ model, input: 'find it', tools }).finalResponse()
      expect(
        streamed.output.find((item) => item.type === 'function_call'),
        model,
      ).toMatchObject({
        name: 'lookup',
        arguments: '{"mock":true}',
      })
      if (call?.type !== 'function_call') continue
      const next = await client.responses.create({
        model,
        input: [
          { role: 'user', content: 'find it' },
          call,
          { type: 'function_call_output', call_id: call.call_id, output: 'found' },
        ],
        tools,
        tool_choice: 'none',
      })
      expect(next.output_text, model).toBe(GENERATED)
    }
    // The translated request carried the call and its output as chat messages.
    expect(lastCall('authorization', 'Bearer sk-compatible-resp').json).toMatchObject({
      messages: [
        { role: 'user', content: 'find it' },
        { role: 'assistant', tool_calls: [{ id: 'call_mock', function: { name: 'lookup' } }] },
        { role: 'tool', tool_call_id: 'call_mock', content: 'found' },
      ],
    })
  })

  it('sends images to a translated channel as image parts', async () => {
    const image =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
    const response = await client.responses.create({
      model: ON_COMPATIBLE,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'what is it' },
            { type: 'input_image', image_url: image, detail: 'auto' },
          ],
        },
      ],
    })
    expect(response.output_text).toBe(GENERATED)
    expect(lastCall('authorization', 'Bearer sk-compatible-resp').json).toMatchObject({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is it' },
            { type: 'image_url', image_url: { url: image } },
          ],
        },
      ],
    })
  })

  it('fails over from an OpenAI channel that is rate limited to a translated one', async () => {
    fixture.mock.addFault({ match: { keyContains: 'sk-openai-resp' }, status: 429, times: 1 })
    const response = await client.responses.create({ model: FAILOVER, input: 'one two' })
    expect(response.output_text).toBe(GENERATED)
  })

  it("answers errors in OpenAI's shape, which the client reads as its own", async () => {
    const wrongKey = fixture.openai('sk-not-a-token')
    const refused = await relayFailure(wrongKey.responses.create({ model: PASSED, input: 'hi' }))
    expect(refused.status).toBe(401)
    const missing = await relayFailure(
      client.responses.create({ model: PASSED } as OpenAI.Responses.ResponseCreateParamsNonStreaming),
    )
    expect(missing).toMatchObject({ status: 400, error: { param: 'input', type: 'invalid_request_error' } })
    const upstream = await relayFailure(
      client.responses.create({ model: `${ON_COMPATIBLE}`, input: 'hi', max_output_tokens: 0 }),
    )
    expect(upstream).toMatchObject({ status: 400, error: { param: 'max_output_tokens' } })
  })
})
