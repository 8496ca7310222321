/**
 * Gemini translation details the conformance suite does not cover: errors beyond its five,
 * thought parts, legacy models without system instructions, generation settings, stream errors.
 */
import { describe, expect, it } from 'vitest'
import type { UpstreamError } from '../adaptor.ts'
import type { Json } from '../shared/json.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { geminiAdaptor } from './adaptor.ts'
import { geminiChatBody } from './request-body.ts'
import { mapGeminiError } from './response.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const request = jsonRelayRequest('chat', {
  model: 'gemini-2.5-flash',
  messages: [{ role: 'user', content: 'hi' }],
})
const errorOf = (name: string, status: number) =>
  geminiAdaptor.parseResponse({ status, headers: {}, body: fixture(name) }, request) as UpstreamError

describe('Gemini errors', () => {
  it('disables the channel for a 403 about the key, and only retries other 403s', () => {
    expect(errorOf('error-403.json', 403)).toMatchObject({
      status: 403,
      disableChannel: true,
      retryable: true,
    })
    const fileRefused = JSON.stringify({
      error: {
        code: 403,
        message: 'You do not have permission to access the File abc.',
        status: 'PERMISSION_DENIED',
      },
    })
    expect(mapGeminiError(403, fileRefused)).toMatchObject({ disableChannel: false, retryable: true })
  })

  it('retries 503 UNAVAILABLE and keeps Google status as the error code', () => {
    expect(errorOf('error-503.json', 503)).toMatchObject({
      status: 503,
      retryable: true,
      disableChannel: false,
      code: 'UNAVAILABLE',
      message: 'The model is overloaded. Please try again later.',
    })
  })

  it('passes an error event inside a stream on as an OpenAI error', () => {
    const stream = geminiAdaptor.createStreamTransformer({ ...request, stream: true }, {} as never)
    const event = `data: ${fixture('error-503.json')
      .toString()
      .replace(/\s*\n\s*/g, '')}\r\n\r\n`
    const output = stream.push(Buffer.from(event)) + stream.finish(false)
    expect(stream.streamError).toMatchObject({ status: 503, retryable: true })
    expect(JSON.parse(output.slice(6)).error.message).toBe('The model is overloaded. Please try again later.')
  })
})

describe('Gemini answers', () => {
  it('takes a usage sent after the finish reason, and finishes once', () => {
    const stream = geminiAdaptor.createStreamTransformer({ ...request, stream: true }, {} as never)
    const event = (body: unknown) => `data: ${JSON.stringify(body)}\r\n\r\n`
    const finished = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, finishReason: 'STOP' }],
    }
    const usage = { usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 } }
    const output =
      stream.push(Buffer.from(event(finished) + event({ ...finished, ...usage }))) + stream.finish()
    expect(output.match(/"finish_reason":"stop"/g)).toHaveLength(1)
    expect(stream.usage).toMatchObject({ promptTokens: 2, completionTokens: 1 })
  })

  it('returns thought parts as reasoning_content', () => {
    const body = Buffer.from(
      JSON.stringify({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Weighing it up.', thought: true }, { text: '42' }] },
            finishReason: 'MAX_TOKENS',
          },
        ],
        usageMetadata: {
          promptTokenCount: 3,
          candidatesTokenCount: 1,
          thoughtsTokenCount: 4,
          totalTokenCount: 8,
        },
      }),
    )
    const parsed = geminiAdaptor.parseResponse({ status: 200, headers: {}, body }, request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    const choice = JSON.parse(parsed.body.toString()).choices[0]
    expect(choice).toMatchObject({
      finish_reason: 'length',
      message: { content: '42', reasoning_content: 'Weighing it up.' },
    })
    expect(parsed.usage).toMatchObject({ completionTokens: 5, reasoningTokens: 4, totalTokens: 8 })
  })
})

describe('Gemini request bodies', () => {
  it('sends the system text as a first user turn to models without system instructions', () => {
    const body = geminiChatBody(
      {
        messages: [
          { role: 'system', content: 'Be terse' },
          { role: 'user', content: 'hi' },
        ],
      },
      { model: 'gemini-pro' },
    )
    expect(body.systemInstruction).toBeUndefined()
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Be terse' }] },
      { role: 'model', parts: [{ text: 'Okay' }] },
      { role: 'user', parts: [{ text: 'hi' }] },
    ])
  })

  it('maps sampling, stop, JSON output and reasoning effort to generationConfig', () => {
    const body = geminiChatBody(
      {
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.2,
        top_p: 0.9,
        stop: 'END',
        max_completion_tokens: 50,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'x',
            schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
          },
        },
        reasoning_effort: 'low',
      },
      { model: 'gemini-2.5-flash' },
    )
    expect(body.generationConfig).toEqual({
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ['END'],
      maxOutputTokens: 50,
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { a: { type: 'string' } } },
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    })
  })

  it('inlines an image URL the pipeline fetched', () => {
    const url = 'https://example.com/cat.png'
    const json = {
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    }
    expect(geminiAdaptor.remoteImages?.(jsonRelayRequest('chat', json))).toEqual([url])
    const body = geminiChatBody(json, {
      model: 'gemini-2.0-flash',
      images: new Map([[url, { mediaType: 'image/png', base64: 'iVBORw0KGgo=' }]]),
    })
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
    ])
  })

  it('marks the first replayed function call of each model turn for Gemini 3, which wants a signature', () => {
    const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } })
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '2' },
    ]
    const parts = (model: string) =>
      (geminiChatBody({ messages }, { model }).contents as { parts: Json[] }[])[1]!.parts
    expect(parts('gemini-3-pro-preview')).toEqual([
      { functionCall: { name: 'f', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
      { functionCall: { name: 'f', args: {} } },
    ])
    expect(parts('gemini-2.5-flash')[0]).not.toHaveProperty('thoughtSignature')
  })
})
