/**
 * Responses API clients: requests translated to chat, chat answers and streams built into the
 * Responses shapes (checked against OpenAI's published schema), and pass-through usage reading.
 */
import { describe, expect, it } from 'vitest'
import { anthropicAdaptor } from '../anthropic/adaptor.ts'
import { openAiCompatibleAdaptor } from '../openai-compatible/adaptor.ts'
import type { Json } from '../shared/json.ts'
import { fixtureLoader, splitEvery } from '../testing/fixtures.ts'
import { schemaIssues } from '../testing/openai-schema.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { responsesEventIssues } from '../testing/responses-schema.ts'
import { responsesClientBridge } from './bridge.ts'
import { ResponsesPassthroughStream, responsesPassthroughAdaptor, servesResponsesApi } from './passthrough.ts'
import { type InvalidResponsesRequest, responsesToChatRequest } from './to-chat-request.ts'

const openAiFixture = fixtureLoader(new URL('../openai-compatible/__fixtures__/', import.meta.url))
const anthropicFixture = fixtureLoader(new URL('../anthropic/__fixtures__/', import.meta.url))
const bridge = responsesClientBridge(openAiCompatibleAdaptor)
const channel = { type: 50, key: 'sk-upstream', baseUrl: 'https://upstream.example/v1' }

/** The RelayRequest the pipeline builds for a Responses client. */
function responsesRequest(native: Json, mappedModel = String(native.model)) {
  const chat = responsesToChatRequest(native)
  return jsonRelayRequest('chat', chat, {
    clientApi: 'responses',
    native: { json: native, body: Buffer.from(JSON.stringify(native)) },
    mappedModel,
    receivedAt: 1_700_000_000,
  })
}

/** Runs an upstream stream through a transformer in small pieces; returns the events written. */
function streamEvents(transformer: ReturnType<typeof bridge.createStreamTransformer>, bytes: Buffer): Json[] {
  let text = ''
  for (const piece of splitEvery(bytes, 7)) text += transformer.push(piece).toString()
  text += transformer.finish(true)
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n')
      const event = JSON.parse(dataLine!.slice(6)) as Json
      expect(eventLine).toBe(`event: ${event.type}`)
      return event
    })
}

function expectValidStream(events: Json[]): void {
  events.forEach((event, index) => {
    expect(event.sequence_number).toBe(index)
    expect(responsesEventIssues(event), String(event.type)).toEqual([])
  })
}

describe('Responses requests as chat requests', () => {
  it('translates instructions, messages, images, function calls and their outputs', () => {
    const chat = responsesToChatRequest({
      model: 'gpt-4o',
      instructions: 'Be brief',
      max_output_tokens: 300,
      input: [
        { role: 'developer', content: 'Answer in French' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Weather here?' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'weather', arguments: '{"city":"Lyon"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '20°C' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Il fait 18°C.' }] },
      ],
      tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' }, strict: true }],
      tool_choice: { type: 'function', name: 'weather' },
      parallel_tool_calls: false,
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      temperature: 0.2,
      stream: true,
    })
    expect(chat).toEqual({
      model: 'gpt-4o',
      stream: true,
      max_tokens: 300,
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'system', content: 'Answer in French' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Lyon"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        { role: 'tool', tool_call_id: 'call_2', content: '20°C' },
        { role: 'assistant', content: 'Il fait 18°C.' },
      ],
      tools: [
        { type: 'function', function: { name: 'weather', parameters: { type: 'object' }, strict: true } },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
    })
  })

  it('takes a plain string input as one user message', () => {
    expect(responsesToChatRequest({ model: 'm', input: 'Hi there' })).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'Hi there' }],
    })
  })

  it('refuses what the API refuses, naming the parameter', () => {
    const refusal = (json: Json) => {
      try {
        responsesToChatRequest(json)
      } catch (error) {
        return error as InvalidResponsesRequest
      }
      throw new Error('accepted')
    }
    expect(refusal({ input: 'x' }).param).toBe('model')
    expect(refusal({ model: 'm' }).param).toBe('input')
    expect(refusal({ model: 'm', input: 'x', max_output_tokens: 0 }).param).toBe('max_output_tokens')
    expect(
      refusal({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] })
        .message,
    ).toContain('image_url')
    expect(refusal({ model: 'm', input: [{ type: 'web_search_call' }] }).message).toContain('web_search_call')
  })

  it('leaves stored conversations and built-in tools to channels that serve the API', () => {
    const stored = responsesRequest({ model: 'm', input: 'x', previous_response_id: 'resp_1' })
    expect(bridge.buildRequest(stored, channel)).toMatchObject({
      kind: 'error',
      status: 400,
      retryable: true,
    })
    const search = responsesRequest({ model: 'm', input: 'x', tools: [{ type: 'web_search' }] })
    expect(bridge.buildRequest(search, channel)).toMatchObject({ kind: 'error', retryable: true })
    const plain = bridge.buildRequest(responsesRequest({ model: 'm', input: 'x' }), channel)
    expect(plain).toMatchObject({ kind: 'request', url: 'https://upstream.example/v1/chat/completions' })
  })
})

describe('chat answers as Responses', () => {
  const parse = (fixture: Buffer, native: Json) =>
    bridge.parseResponse(
      { status: 200, headers: { 'content-type': 'application/json' }, body: fixture },
      responsesRequest(native),
    )

  it('builds a completed Response with its text and usage, valid against the schema', () => {
    const parsed = parse(openAiFixture('chat-completion.json'), {
      model: 'gpt-4o',
      input: 'Hi',
      instructions: 'Be brief',
    })
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const response = JSON.parse(parsed.body.toString())
    expect(schemaIssues('Response', response)).toEqual([])
    const completion = JSON.parse(openAiFixture('chat-completion.json').toString())
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      instructions: 'Be brief',
      output: [
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: completion.choices[0].message.content }],
        },
      ],
      usage: {
        input_tokens: completion.usage.prompt_tokens,
        output_tokens: completion.usage.completion_tokens,
        total_tokens: completion.usage.total_tokens,
      },
    })
    expect(parsed.usage?.promptTokens).toBe(completion.usage.prompt_tokens)
  })

  it('turns tool calls into function_call items', () => {
    const tools = [{ type: 'function', name: 'get_current_weather', parameters: { type: 'object' } }]
    const parsed = parse(openAiFixture('chat-tool-call.json'), { model: 'gpt-4o', input: 'Weather?', tools })
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const response = JSON.parse(parsed.body.toString())
    expect(schemaIssues('Response', response)).toEqual([])
    const call = response.output.find((item: Json) => item.type === 'function_call')
    expect(call).toMatchObject({ name: 'get_current_weather', status: 'completed' })
    expect(JSON.parse(call.arguments)).toBeTypeOf('object')
    expect(call.call_id).toMatch(/^call_/)
  })

  it('reports a cut-off answer as incomplete with its reason', () => {
    const completion = JSON.parse(openAiFixture('chat-completion.json').toString())
    completion.choices[0].finish_reason = 'length'
    const parsed = parse(Buffer.from(JSON.stringify(completion)), {
      model: 'gpt-4o',
      input: 'Hi',
      max_output_tokens: 5,
    })
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const response = JSON.parse(parsed.body.toString())
    expect(response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 5,
    })
    expect(schemaIssues('Response', response)).toEqual([])
  })

  it('keeps upstream errors in OpenAI shape', () => {
    const parsed = bridge.parseResponse(
      { status: 429, headers: {}, body: openAiFixture('error-429.json') },
      responsesRequest({ model: 'gpt-4o', input: 'Hi' }),
    )
    expect(parsed).toMatchObject({ kind: 'error', status: 429, retryable: true })
  })
})

describe('chat streams as Responses event streams', () => {
  const transform = (native: Json) => {
    const request = responsesRequest(native)
    const built = bridge.buildRequest(request, channel)
    if (built.kind !== 'request') throw new Error(built.message)
    return bridge.createStreamTransformer(request, built)
  }

  it('streams text as created, in_progress, item and part events, deltas, then completed with usage', () => {
    const transformer = transform({ model: 'gpt-4o', input: 'Hi', stream: true })
    const events = streamEvents(transformer, openAiFixture('chat-stream.sse'))
    expectValidStream(events)
    const types = events.map((event) => event.type)
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ])
    expect(types.slice(-5)).toEqual([
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ])
    const text = events
      .filter((event) => event.type === 'response.output_text.delta')
      .map((event) => event.delta)
      .join('')
    const completed = events.at(-1)!.response as Json
    expect(completed.status).toBe('completed')
    expect((completed.output as Json[])[0]).toMatchObject({ type: 'message', content: [{ text }] })
    expect(text.length).toBeGreaterThan(0)
    expect(transformer.upstreamCompleted).toBe(true)
  })

  it('streams a tool call as a function_call item with argument deltas', () => {
    const tools = [{ type: 'function', name: 'get_current_weather', parameters: { type: 'object' } }]
    const events = streamEvents(
      transform({ model: 'gpt-4o', input: 'Weather?', tools, stream: true }),
      openAiFixture('chat-stream-tool-call.sse'),
    )
    expectValidStream(events)
    const added = events.find((event) => event.type === 'response.output_item.added')!
    expect(added.item).toMatchObject({ type: 'function_call', name: 'get_current_weather', arguments: '' })
    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta')
    const done = events.find((event) => event.type === 'response.function_call_arguments.done')!
    expect(done.arguments).toBe(deltas.map((event) => event.delta).join(''))
    expect(JSON.parse(String(done.arguments))).toBeTypeOf('object')
  })

  it('streams an Anthropic channel the same way, usage from its message events', () => {
    const anthropicBridge = responsesClientBridge(anthropicAdaptor)
    const request = responsesRequest({ model: 'claude-3-5-haiku-latest', input: 'Hi', stream: true })
    const built = anthropicBridge.buildRequest(request, { type: 14, key: 'sk-ant' })
    if (built.kind !== 'request') throw new Error(built.message)
    const transformer = anthropicBridge.createStreamTransformer(request, built)
    const events = streamEvents(transformer, anthropicFixture('stream.sse'))
    expectValidStream(events)
    const completed = events.at(-1)!
    expect(completed.type).toBe('response.completed')
    expect((completed.response as Json).usage).toMatchObject({
      input_tokens: transformer.usage!.promptTokens,
      output_tokens: transformer.usage!.completionTokens,
    })
  })

  it('ends a stream with an error event as failed, and adds nothing to a cut stream', () => {
    const failing = transform({ model: 'gpt-4o', input: 'Hi', stream: true })
    const error =
      'data: {"error":{"message":"overloaded","type":"server_error","param":null,"code":null}}\n\ndata: [DONE]\n\n'
    const events = streamEvents(failing, Buffer.from(error))
    expectValidStream(events)
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'error',
      'response.failed',
    ])
    const cut = transform({ model: 'gpt-4o', input: 'Hi', stream: true })
    const head = `${openAiFixture('chat-stream.sse').toString().split('\n\n').slice(0, 2).join('\n\n')}\n\n`
    cut.push(Buffer.from(head))
    expect(cut.finish(false)).not.toContain('response.completed')
  })
})

describe('pass-through to channels that serve the Responses API', () => {
  it('is chosen for OpenAI channels and for others whose config says so', () => {
    expect(servesResponsesApi(1, undefined)).toBe(true)
    expect(servesResponsesApi(50, undefined)).toBe(false)
    expect(servesResponsesApi(50, { responses_api: true })).toBe(true)
    expect(servesResponsesApi(3, undefined)).toBe(true)
    expect(servesResponsesApi(40, { responses_api: true })).toBe(false)
  })

  it("sends the client's body with the channel's model to /v1/responses", () => {
    const native = { model: 'gpt-alias', input: 'Hi', tools: [{ type: 'web_search' }] }
    const built = responsesPassthroughAdaptor.buildRequest(responsesRequest(native, 'gpt-4o'), {
      type: 1,
      key: 'sk-openai',
      baseUrl: 'https://api.openai.com',
    })
    expect(built).toMatchObject({
      kind: 'request',
      url: 'https://api.openai.com/v1/responses',
      headers: { Authorization: 'Bearer sk-openai' },
    })
    if (built.kind !== 'request') return
    expect(JSON.parse(String(built.body))).toEqual({ ...native, model: 'gpt-4o' })
  })

  it("sends Azure's v1 Responses path with the deployment as the model and the api-key header", () => {
    const built = responsesPassthroughAdaptor.buildRequest(
      responsesRequest({ model: 'gpt-4.1', input: 'Hi' }),
      {
        type: 3,
        key: 'azure-key',
        baseUrl: 'https://res.openai.azure.com/',
      },
    )
    expect(built).toMatchObject({
      kind: 'request',
      url: 'https://res.openai.azure.com/openai/v1/responses',
      headers: { 'api-key': 'azure-key' },
    })
    if (built.kind !== 'request') return
    expect(built.headers.Authorization).toBeUndefined()
    expect(JSON.parse(String(built.body))).toEqual({ model: 'gpt-41', input: 'Hi' })
  })

  it('reads usage with cached and reasoning tokens from the answer and from response.completed', () => {
    const usage = {
      input_tokens: 30,
      input_tokens_details: { cached_tokens: 10 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 8 },
      total_tokens: 50,
    }
    const body = Buffer.from(JSON.stringify({ id: 'resp_1', object: 'response', output: [], usage }))
    const parsed = responsesPassthroughAdaptor.parseResponse(
      { status: 200, headers: {}, body },
      responsesRequest({ model: 'gpt-4o', input: 'Hi' }),
    )
    const expected = {
      promptTokens: 30,
      completionTokens: 20,
      cachedTokens: 10,
      reasoningTokens: 8,
      totalTokens: 50,
    }
    expect(parsed).toMatchObject({ kind: 'response', body, usage: expected })
    const stream = new ResponsesPassthroughStream()
    const events = [
      { type: 'response.created', sequence_number: 0, response: { id: 'resp_1' } },
      { type: 'response.output_text.delta', sequence_number: 1, delta: 'Hello' },
      { type: 'response.completed', sequence_number: 2, response: { id: 'resp_1', usage } },
    ]
    const sse = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('')
    let out = ''
    for (const piece of splitEvery(Buffer.from(sse), 5)) out += stream.push(piece)
    out += stream.finish()
    expect(out).toBe(sse)
    expect(stream.usage).toMatchObject(expected)
    expect(stream.completionText).toBe('Hello')
    expect(stream.upstreamCompleted).toBe(true)
    expect(stream.answered).toBe(true)
  })
})
