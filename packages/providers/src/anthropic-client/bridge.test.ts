/** Messages clients on OpenAI-format channels: the request translated, answers and streams turned back. */
import { describe, expect, it } from 'vitest'
import { openAiCompatibleAdaptor } from '../openai-compatible/adaptor.ts'
import { fixtureLoader, splitEvery } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { anthropicClientBridge } from './bridge.ts'
import { messagesToChatRequest } from './to-chat-request.ts'

const openAiFixture = fixtureLoader(new URL('../openai-compatible/__fixtures__/', import.meta.url))
const bridge = anthropicClientBridge(openAiCompatibleAdaptor)

describe('Messages requests as chat requests', () => {
  it('translates system blocks, images, tool use and tool results', () => {
    const chat = messagesToChatRequest({
      model: 'gpt-4o',
      max_tokens: 200,
      system: [{ type: 'text', text: 'Be brief' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'Weather here?' },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' }] },
      ],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
    })
    expect(chat).toEqual({
      model: 'gpt-4o',
      max_tokens: 200,
      stop: ['END'],
      messages: [
        { role: 'system', content: 'Be brief' },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'text', text: 'Weather here?' },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
      ],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
    })
  })

  it('refuses what the Messages API refuses', () => {
    expect(() => messagesToChatRequest({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })).toThrow(
      /max_tokens/,
    )
    expect(() => messagesToChatRequest({ model: 'x', max_tokens: 5, messages: [] })).toThrow(/messages/)
  })
})

describe('chat answers as Messages answers', () => {
  const request = jsonRelayRequest(
    'chat',
    { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    { clientApi: 'anthropic' },
  )

  it('turns a tool call answer into a tool_use message', () => {
    const result = bridge.parseResponse(
      { status: 200, headers: {}, body: openAiFixture('chat-tool-call.json') },
      request,
    )
    if (result.kind !== 'response') throw new Error(result.message)
    expect(JSON.parse(result.body.toString())).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'call_abc123',
          name: 'get_current_weather',
          input: { location: 'Boston, MA' },
        },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 82, output_tokens: 17 },
    })
  })

  it('turns a streamed tool call into Messages events, in pieces of any size', () => {
    const streamRequest = { ...request, stream: true }
    for (const size of [3, 100_000]) {
      const built = bridge.buildRequest(streamRequest, { type: 1, key: 'k' })
      if (built.kind !== 'request') throw new Error(built.message)
      const transformer = bridge.createStreamTransformer(streamRequest, built)
      let output = ''
      for (const piece of splitEvery(openAiFixture('chat-stream-tool-call.sse'), size))
        output += transformer.push(piece)
      output += transformer.finish()
      const events = output
        .split('\n\n')
        .filter(Boolean)
        .map((event) => JSON.parse(event.split('\ndata: ')[1]!))
      expect(events.map((event) => event.type)).toEqual([
        'message_start',
        'content_block_start',
        ...Array(6).fill('content_block_delta'),
        'content_block_stop',
        'message_delta',
        'message_stop',
      ])
      expect(events[1].content_block).toMatchObject({ type: 'tool_use', name: 'get_current_weather' })
      const json = events
        .slice(2, 8)
        .map((event) => event.delta.partial_json)
        .join('')
      expect(JSON.parse(json)).toEqual({ location: 'Boston, MA' })
      expect(events.at(-2)).toMatchObject({
        delta: { stop_reason: 'tool_use' },
        usage: { input_tokens: 82, output_tokens: 17 },
      })
    }
  })
})
