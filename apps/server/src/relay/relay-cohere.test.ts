/**
 * Cohere channels (type 35) through the whole gateway, driven by the official `openai` client:
 * chat completions (JSON, streamed, tools) translated to Cohere's Chat v2 and back, embeddings
 * through Embed v2, billed and logged from Cohere's usage, errors mapped for failover.
 */
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { expectedQuota, REQUEST_ID, RelayFixture, relayFailure } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const COHERE = 35
const CHAT = 'command-r-gw'
const EMBED = 'embed-v4.0'
const FAILOVER = 'command-r-failover'
const GENERATED = 'Hello from the mock upstream'
const RATIO = 5
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Looks a thing up',
      parameters: { type: 'object', properties: {} },
    },
  },
]

describe.each(testDialects())('Cohere channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI

  const lastCohereCall = () => fixture.requestsFor('co-key-gw').at(-1)!

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({
      type: COHERE,
      key: 'co-key-gw',
      models: [CHAT, EMBED, FAILOVER],
      model_mapping: { [CHAT]: 'command-r-08-2024' },
      priority: 10,
    })
    await fixture.addChannel({ key: 'sk-backup-gw', models: [FAILOVER] })
    const models = ['command-r-08-2024', EMBED, FAILOVER]
    await fixture.priceModels(models, RATIO, 2)
    await fixture.setOption('RetryTimes', 1)
    client = fixture.openai((await fixture.createToken()).key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers a chat completion from /v2/chat, billed and logged from its usage', async () => {
    const { data, response } = await client.chat.completions
      .create({
        model: CHAT,
        messages: [
          { role: 'system', content: 'Be brief' },
          { role: 'user', content: 'one two three' },
        ],
        max_tokens: 50,
      })
      .withResponse()
    expect(data.choices[0]?.message.content).toBe(GENERATED)
    expect(data.choices[0]?.finish_reason).toBe('stop')
    // Cohere's mock counts the words of every message: 2 + 3.
    expect(data.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 })
    const upstream = lastCohereCall()
    expect(upstream.path).toBe('/v2/chat')
    expect(upstream.json).toEqual({
      model: 'command-r-08-2024',
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'one two three' },
      ],
      max_tokens: 50,
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: 'command-r-08-2024', prompt_tokens: 5, completion_tokens: 5 })
    expect(log.quota).toBe(expectedQuota(5, 5, RATIO, 2))
  })

  it('streams, with the usage chunk the client asked for, and bills the stream', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({
        model: CHAT,
        messages: [{ role: 'user', content: 'one two' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse()
    const { text, usage } = await readChatStream(stream)
    expect(text).toBe(GENERATED)
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 5 })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ prompt_tokens: 2, completion_tokens: 5, is_stream: true })
    expect(log.quota).toBe(expectedQuota(2, 5, RATIO, 2))
  })

  it('returns a tool call, streamed too', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'find it' }]
    const answer = await client.chat.completions.create({ model: CHAT, messages, tools })
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls')
    expect(answer.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'lookup', arguments: '{"mock":true}' },
    })
    const stream = await client.chat.completions.create({ model: CHAT, messages, tools, stream: true })
    const { toolArguments: args, finish } = await readChatStream(stream)
    expect(args).toBe('{"mock":true}')
    expect(finish).toBe('tool_calls')
    expect(lastCohereCall().json).toMatchObject({
      tools: [{ type: 'function', function: { name: 'lookup' } }],
    })
  })

  it('embeds through /v2/embed, vectors decoded by the client, billed from the billed units', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBED, input: ['one two', 'three'] })
      .withResponse()
    expect(data.data).toHaveLength(2)
    expect(data.data[0]?.embedding[0]).toBeCloseTo(0.5, 5)
    expect(lastCohereCall().json).toMatchObject({
      texts: ['one two', 'three'],
      input_type: 'search_document',
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: EMBED, prompt_tokens: 3, completion_tokens: 0 })
    expect(log.quota).toBe(expectedQuota(3, 0, RATIO, 2))
  })

  it('fails over on a Cohere 429 and returns its 400 as is', async () => {
    fixture.mock.addFault({ match: { keyContains: 'co-key-gw' }, status: 429, times: 1 })
    const answer = await client.chat.completions.create({
      model: FAILOVER,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(answer.choices[0]?.message.content).toBe(GENERATED)
    expect(fixture.requestsFor('sk-backup-gw').length).toBeGreaterThan(0)
    fixture.mock.addFault({ match: { keyContains: 'co-key-gw' }, status: 400, times: 1 })
    const refused = await relayFailure(
      client.chat.completions.create({ model: CHAT, messages: [{ role: 'user', content: 'hi' }] }),
    )
    expect(refused.status).toBe(400)
    expect(refused.error.message).toContain('invalid request')
  })
})
