/**
 * Ollama channels (type 30) through the whole gateway, driven by the official `openai` client:
 * chat completions translated to Ollama's native /api/chat, its newline-delimited JSON stream
 * turned into OpenAI's event stream, tools, base64 images, embeddings through /api/embed; billed
 * and logged from prompt_eval_count and eval_count.
 */

import { ChannelType } from '@one-api/contracts/channel-types'
import type OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChatStream } from '../testing/chat-stream.ts'
import { expectedQuota, REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'
import { testDialects } from '../testing/test-databases.ts'

const CHAT = 'llama3.2'
const EMBED = 'all-minilm'
const GENERATED = 'Hello from the mock upstream'
const RATIO = 3
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
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

describe.each(testDialects())('Ollama channels through the gateway on %s', (dialect) => {
  let fixture: RelayFixture
  let client: OpenAI

  const lastOllamaCall = () => fixture.requestsFor('ollama-key').at(-1)!

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    await fixture.addChannel({ type: ChannelType.ollama, key: 'ollama-key', models: [CHAT, EMBED] })
    await fixture.setPrices({ [CHAT]: RATIO, [EMBED]: RATIO }, { [CHAT]: 1, [EMBED]: 1 })
    client = fixture.openai((await fixture.createToken()).key)
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('answers from /api/chat, options mapped, billed from prompt_eval_count and eval_count', async () => {
    const { data, response } = await client.chat.completions
      .create({
        model: CHAT,
        messages: [{ role: 'user', content: 'one two three' }],
        max_tokens: 3,
        temperature: 0.5,
      })
      .withResponse()
    expect(data.choices[0]?.message.content).toBe('Hello from the')
    expect(data.choices[0]?.finish_reason).toBe('length')
    expect(data.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 3 })
    const upstream = lastOllamaCall()
    expect(upstream.path).toBe('/api/chat')
    expect(upstream.json).toEqual({
      model: CHAT,
      messages: [{ role: 'user', content: 'one two three' }],
      stream: false,
      options: { num_predict: 3, temperature: 0.5 },
    })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: CHAT, prompt_tokens: 3, completion_tokens: 3 })
    expect(log.quota).toBe(expectedQuota(3, 3, RATIO, 1))
  })

  it('streams NDJSON as OpenAI chunks, with the usage chunk asked for, and bills the stream', async () => {
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
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 5, total_tokens: 7 })
    expect(lastOllamaCall().json).toMatchObject({ stream: true })
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ prompt_tokens: 2, completion_tokens: 5, is_stream: true })
    expect(log.quota).toBe(expectedQuota(2, 5, RATIO, 1))
  })

  it('returns tool calls, streamed too, and sends images as base64', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look here' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]
    const answer = await client.chat.completions.create({ model: CHAT, messages, tools })
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls')
    expect(answer.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'lookup', arguments: '{"mock":true}' },
    })
    expect(lastOllamaCall().json).toMatchObject({
      messages: [{ role: 'user', content: 'look here', images: [PNG] }],
    })
    const stream = await client.chat.completions.create({ model: CHAT, messages, tools, stream: true })
    const { toolArguments: args, finish } = await readChatStream(stream)
    expect(args).toBe('{"mock":true}')
    expect(finish).toBe('tool_calls')
  })

  it('embeds through /api/embed, billed from prompt_eval_count', async () => {
    const { data, response } = await client.embeddings
      .create({ model: EMBED, input: ['one two', 'three'] })
      .withResponse()
    expect(data.data).toHaveLength(2)
    expect(data.data[1]?.embedding[0]).toBeCloseTo(0.5, 5)
    expect(lastOllamaCall().path).toBe('/api/embed')
    const log = await fixture.logFor(response.headers.get(REQUEST_ID))
    expect(log).toMatchObject({ model_name: EMBED, prompt_tokens: 3 })
    expect(log.quota).toBe(expectedQuota(3, 0, RATIO, 1))
  })
})
