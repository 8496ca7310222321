/**
 * Gemini clients: their requests read as chat requests, OpenAI answers and streams turned into
 * Gemini's, Gemini streams passed on in the framing the client asked for, errors in Google's shape.
 */
import { describe, expect, it } from 'vitest'
import { SAFETY_CATEGORIES, safetySettings } from '../gemini/request-body.ts'
import { openAiCompatibleAdaptor } from '../openai-compatible/adaptor.ts'
import type { Json } from '../shared/json.ts'
import { fixtureLoader, splitEvery } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { geminiClientBridge } from './bridge.ts'
import { toGoogleErrorBody } from './from-chat-response.ts'
import { geminiNativeAdaptor } from './native-adaptor.ts'
import { generateContentToChatRequest, InvalidGenerateContentRequest } from './to-chat-request.ts'

const openAiFixture = fixtureLoader(new URL('../openai-compatible/__fixtures__/', import.meta.url))
const geminiFixture = fixtureLoader(new URL('../gemini/__fixtures__/', import.meta.url))
const bridge = geminiClientBridge(openAiCompatibleAdaptor)
/** A GenerateContentResponse as the tests read it. */
interface Answer {
  candidates: { content: { parts: Json[] }; finishReason?: string }[]
  usageMetadata?: Json
}

/** A chat request as the pipeline builds it for a Gemini client. */
const clientRequest = (native: Json, stream = false, jsonArrayStream = false) => {
  const chat = generateContentToChatRequest(native, 'gpt-4o', stream)
  return jsonRelayRequest('chat', chat, {
    clientApi: 'gemini',
    native: { json: native, body: Buffer.from(JSON.stringify(native)), jsonArrayStream },
  })
}

function replay(
  transformer: ReturnType<typeof bridge.createStreamTransformer>,
  bytes: Buffer,
  complete = true,
) {
  let output = ''
  for (const piece of splitEvery(bytes, 11)) output += transformer.push(piece)
  return output + transformer.finish(complete)
}

const sseEvents = (output: string): Answer[] =>
  output
    .split('\r\n\r\n')
    .filter(Boolean)
    .map((event) => JSON.parse(event.replace(/^data: /, '')))

describe('GenerateContent requests as chat requests', () => {
  it('translates the system instruction, roles, images, function calls and responses, and settings', () => {
    const chat = generateContentToChatRequest(
      {
        systemInstruction: { parts: [{ text: 'Be brief' }] },
        contents: [
          {
            role: 'user',
            parts: [
              { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
              { text: 'Weather here?' },
            ],
          },
          { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Paris' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { celsius: 18 } } }] },
        ],
        tools: [
          {
            functionDeclarations: [
              { name: 'weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
        generationConfig: {
          temperature: 0.1,
          maxOutputTokens: 200,
          stopSequences: ['END'],
          responseMimeType: 'application/json',
        },
      },
      'gpt-4o',
      true,
    )
    expect(chat).toEqual({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.1,
      max_tokens: 200,
      stop: ['END'],
      response_format: { type: 'json_object' },
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
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"celsius":18}' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ],
      tool_choice: 'required',
    })
  })

  it('refuses what Google refuses: no contents, a role other than user and model', () => {
    expect(() => generateContentToChatRequest({ contents: [] }, 'm', false)).toThrow(
      InvalidGenerateContentRequest,
    )
    expect(() =>
      generateContentToChatRequest({ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'm', false),
    ).toThrow('valid role')
  })
})

describe('OpenAI answers for Gemini clients', () => {
  it('turns a chat completion into a GenerateContentResponse, thinking and cache counted apart', () => {
    const request = clientRequest({ contents: [{ parts: [{ text: 'hi' }] }] })
    const body = openAiFixture('chat-completion-reasoning.json')
    const parsed = bridge.parseResponse({ status: 200, headers: {}, body }, request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(JSON.parse(parsed.body.toString())).toMatchObject({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'The answer is 42.' }] }, finishReason: 'STOP' },
      ],
      usageMetadata: {
        promptTokenCount: 1180,
        candidatesTokenCount: 22,
        thoughtsTokenCount: 192,
        cachedContentTokenCount: 1024,
        totalTokenCount: 1394,
      },
    })
  })

  it('sends reasoning text as a thought part', () => {
    const completion = {
      choices: [
        {
          message: { role: 'assistant', content: '42', reasoning_content: 'Thinking.' },
          finish_reason: 'length',
        },
      ],
    }
    const request = clientRequest({ contents: [{ parts: [{ text: 'hi' }] }] })
    const parsed = bridge.parseResponse(
      { status: 200, headers: {}, body: Buffer.from(JSON.stringify(completion)) },
      request,
    )
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(JSON.parse(parsed.body.toString()).candidates[0]).toMatchObject({
      content: { parts: [{ text: 'Thinking.', thought: true }, { text: '42' }] },
      finishReason: 'MAX_TOKENS',
    })
  })

  it('streams text as Gemini events, the last with the finish reason and the usage', () => {
    const request = clientRequest({ contents: [{ parts: [{ text: 'hi' }] }] }, true)
    const built = bridge.buildRequest(request, { type: 50, key: 'sk-x', baseUrl: 'http://upstream.test/v1' })
    if (built.kind !== 'request') throw new Error(built.message)
    const stream = bridge.createStreamTransformer(request, built)
    const events = sseEvents(replay(stream, openAiFixture('chat-stream.sse')))
    const text = events.map((event) => event.candidates[0]!.content.parts[0]!.text ?? '').join('')
    expect(text).toBe('Hello! Grüße "aus" 東京 🌸')
    expect(events.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 13, candidatesTokenCount: 9, totalTokenCount: 22 },
    })
    expect(stream.contentType).toBe('text/event-stream')
  })

  it('gathers a streamed tool call into one functionCall part, in one JSON array without alt=sse', () => {
    const request = clientRequest({ contents: [{ parts: [{ text: 'weather?' }] }] }, true, true)
    const stream = bridge.createStreamTransformer(request, {} as never)
    const output = replay(stream, openAiFixture('chat-stream-tool-call.sse'))
    expect(stream.contentType).toBe('application/json')
    const events = JSON.parse(output) as Answer[]
    expect(events.at(-1)!.candidates[0]!.content.parts).toEqual([
      { functionCall: { name: 'get_current_weather', args: { location: 'Boston, MA' } } },
    ])
    expect(events.at(-1)!.usageMetadata?.totalTokenCount).toBe(99)
  })
})

describe('Gemini streams for Gemini clients', () => {
  it('passes each event on, reads the usage, and frames a JSON array when asked', () => {
    const native = { contents: [{ parts: [{ text: 'hi' }] }] }
    for (const jsonArrayStream of [false, true]) {
      const request = clientRequest(native, true, jsonArrayStream)
      const stream = geminiNativeAdaptor.createStreamTransformer(request, {} as never)
      const output = replay(stream, geminiFixture('stream.sse'))
      const events: Answer[] = jsonArrayStream ? JSON.parse(output) : sseEvents(output)
      expect(events).toHaveLength(4)
      expect(events.at(-1)!.usageMetadata?.totalTokenCount).toBe(19)
      expect(stream.usage).toMatchObject({ promptTokens: 11, completionTokens: 8 })
      expect(stream.upstreamCompleted).toBe(true)
    }
  })

  it('leaves a cut array stream unclosed, so the client cannot take it for whole', () => {
    const request = clientRequest({ contents: [{ parts: [{ text: 'hi' }] }] }, true, true)
    const stream = geminiNativeAdaptor.createStreamTransformer(request, {} as never)
    const bytes = geminiFixture('stream.sse')
    const output = replay(stream, bytes.subarray(0, bytes.indexOf('\r\n\r\n') + 4), false)
    expect(output.startsWith('[')).toBe(true)
    expect(output.endsWith(']')).toBe(false)
    expect(stream.upstreamCompleted).toBe(false)
  })

  it('sends the client body to the mapped model, with the channel system prompt as systemInstruction', () => {
    const native = { contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { temperature: 0.3 } }
    const request = {
      ...clientRequest(native, true),
      mappedModel: 'gemini-2.5-flash',
      systemPrompt: 'Be kind',
    }
    const built = geminiNativeAdaptor.buildRequest(request, { type: 24, key: 'AIza-k' })
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    )
    expect(built.headers['x-goog-api-key']).toBe('AIza-k')
    expect(JSON.parse(String(built.body))).toEqual({
      ...native,
      systemInstruction: { parts: [{ text: 'Be kind' }] },
      // GEMINI_SAFETY_SETTING's default, as on the translated path.
      safetySettings: safetySettings('BLOCK_NONE'),
    })
  })

  it('applies GEMINI_SAFETY_SETTING to every harm category unless the client sent safety settings of its own', () => {
    const channel = { type: 24, key: 'AIza-k', defaults: { geminiSafetySetting: 'BLOCK_ONLY_HIGH' } }
    const sent = (native: Json) => {
      const built = geminiNativeAdaptor.buildRequest(clientRequest(native), channel)
      if (built.kind !== 'request') throw new Error(built.message)
      return JSON.parse(String(built.body)) as Json
    }
    const contents = [{ role: 'user', parts: [{ text: 'hi' }] }]
    expect(sent({ contents }).safetySettings).toEqual(
      SAFETY_CATEGORIES.map((category) => ({ category, threshold: 'BLOCK_ONLY_HIGH' })),
    )
    const own = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_LOW_AND_ABOVE' }]
    expect(sent({ contents, safetySettings: own }).safetySettings).toEqual(own)
    // Google's JSON also takes the field in snake case: the client's choice all the same.
    const snake = sent({ contents, safety_settings: own })
    expect(snake.safety_settings).toEqual(own)
    expect(snake).not.toHaveProperty('safetySettings')
  })
})

describe("Google's error shape", () => {
  it('names the status as google.rpc.Code does, or keeps a Gemini upstream own name', () => {
    expect(JSON.parse(toGoogleErrorBody(429, { message: 'slow down', type: 'rate_limit' }, ' (id)'))).toEqual(
      {
        error: { code: 429, message: 'slow down (id)', status: 'RESOURCE_EXHAUSTED' },
      },
    )
    expect(
      JSON.parse(toGoogleErrorBody(400, { message: 'bad', type: 'FAILED_PRECONDITION' })).error.status,
    ).toBe('FAILED_PRECONDITION')
  })
})
