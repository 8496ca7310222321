/** What the conformance suite does not cover of the Anthropic translation: tool results, thinking, stream errors. */
import { describe, expect, it } from 'vitest'
import { fixtureLoader, splitEvery } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { anthropicAdaptor } from './adaptor.ts'
import { anthropicBody } from './request-body.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const model = 'claude-3-7-sonnet-20250219'

describe('Anthropic translation', () => {
  it('sends tool calls as tool_use blocks and their results as one user turn of tool_result blocks', () => {
    const body = anthropicBody(
      {
        messages: [
          { role: 'user', content: 'Weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'toolu_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
              {
                id: 'toolu_2',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
          { role: 'tool', tool_call_id: 'toolu_2', content: '24°C' },
        ],
        stop: 'END',
        max_completion_tokens: 300,
        temperature: 1.5,
      },
      { model, stream: false },
    )
    expect(body).toEqual({
      model,
      max_tokens: 300,
      temperature: 1,
      stop_sequences: ['END'],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: '24°C' },
          ],
        },
      ],
    })
  })

  it("replaces the client's first system message with the channel's forced one", () => {
    const body = anthropicBody(
      {
        messages: [
          { role: 'system', content: 'client' },
          { role: 'user', content: 'hi' },
        ],
      },
      { model, stream: true, systemPrompt: 'channel' },
    )
    expect(body).toMatchObject({ system: 'channel', stream: true })
  })

  it('inlines a fetched image URL as base64', () => {
    const url = 'https://example.com/cat.png'
    const body = anthropicBody(
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] },
      { model, stream: false, images: new Map([[url, { mediaType: 'image/png', base64: 'iVBORw0KGgo=' }]]) },
    )
    expect((body.messages as { content: unknown[] }[])[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ])
    const request = jsonRelayRequest('chat', {
      model,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    })
    expect(anthropicAdaptor.remoteImages?.(request)).toEqual([url])
  })

  it('returns thinking blocks as reasoning_content', () => {
    const request = jsonRelayRequest('chat', { model, messages: [{ role: 'user', content: 'primes?' }] })
    const result = anthropicAdaptor.parseResponse(
      { status: 200, headers: {}, body: fixture('message-thinking.json') },
      request,
    )
    if (result.kind !== 'response') throw new Error(result.message)
    const message = JSON.parse(result.body.toString()).choices[0].message
    expect(message.reasoning_content).toContain('prime numbers')
    expect(message.content).toBe('Yes, there are infinitely many prime numbers.')
  })

  it('fails a stream whose upstream sends an error event before answering, so another channel is tried', () => {
    const request = jsonRelayRequest('chat', {
      model,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    const built = anthropicAdaptor.buildRequest(request, { type: 14, key: 'k' })
    if (built.kind !== 'request') throw new Error(built.message)
    const transformer = anthropicAdaptor.createStreamTransformer(request, built)
    for (const piece of splitEvery(fixture('stream-error.sse'), 9)) transformer.push(piece)
    transformer.finish()
    expect(transformer.answered).toBe(false)
    expect(transformer.streamError).toMatchObject({ status: 502, type: 'overloaded_error', retryable: true })
  })

  it("disables a channel whose organisation's billing Anthropic refuses (402 billing_error)", () => {
    const request = jsonRelayRequest('chat', { model, messages: [{ role: 'user', content: 'hi' }] })
    const body = Buffer.from(
      '{"type":"error","error":{"type":"billing_error","message":"Your credit balance is too low"}}',
    )
    const result = anthropicAdaptor.parseResponse({ status: 402, headers: {}, body }, request)
    expect(result).toMatchObject({ kind: 'error', disableChannel: true, retryable: true })
  })
})
