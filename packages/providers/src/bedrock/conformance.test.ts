/**
 * The Bedrock adaptor through the shared conformance suite. Bodies follow AWS's documented Converse
 * and ConverseStream shapes (the tool example is AWS's own `top_song`); stream transcripts are
 * encoded into AWS event stream frames by AWS's codec (through the mock upstream's encoder).
 * https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html
 */
import { type BedrockStreamEvent, encodeBedrockEvents } from '@one-api/mock-upstream'
import { describe, expect, it } from 'vitest'
import { runAdaptorConformance } from '../testing/conformance.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { bedrockAdaptor } from './adaptor.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const transcript = (name: string) => JSON.parse(fixture(name).toString()) as BedrockStreamEvent[]
const frames = (name: string) => encodeBedrockEvents(transcript(name))
const reply = (name: string, status = 200, headers?: Record<string, string>) => ({
  status,
  headers,
  body: fixture(name),
})
const awsError = (name: string, status: number, type: string) =>
  reply(name, status, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` })
const stream = (name: string) => ({
  status: 200,
  headers: { 'content-type': 'application/vnd.amazon.eventstream' },
  body: frames(name),
})

const model = 'claude-3-5-sonnet-20241022'
const hello = [{ role: 'user', content: 'Hello, Claude' }]
const chat = { model, messages: hello }
const receivedAt = 1_732_780_800
const request = (body: Record<string, unknown>) =>
  jsonRelayRequest('chat', { ...chat, ...body }, { receivedAt })
const helloBlocks = [{ role: 'user', content: [{ text: 'Hello, Claude' }] }]
const base64 = '/9j/4AAQSkZJRg=='
const topSong = {
  type: 'function',
  function: {
    name: 'top_song',
    description: 'Get the most popular song played on a radio station.',
    parameters: {
      type: 'object',
      properties: {
        sign: {
          type: 'string',
          description:
            'The call sign for the radio station for which you want the most popular song. Example calls signs are WZPZ and WKRP.',
        },
      },
      required: ['sign'],
    },
  },
}
const channel = {
  type: 33,
  key: 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|us-east-1',
}
// The stream cut after its second frame (the answer's first text), as a dropped connection leaves it.
const streamFrames = transcript('converse-stream.json')
const cutStream = encodeBedrockEvents(streamFrames.slice(0, 2))

runAdaptorConformance(bedrockAdaptor, {
  channel,
  auth: [
    'authorization',
    /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20241128\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
  ],
  plain: {
    request: jsonRelayRequest(
      'chat',
      { ...chat, model: 'claude' },
      { requestedModel: 'claude', mappedModel: model, receivedAt },
    ),
    sent: { messages: helloBlocks },
  },
  system: {
    request: request({
      messages: [{ role: 'system', content: 'You are a seasoned data scientist.' }, ...hello],
    }),
    sent: { system: [{ text: 'You are a seasoned data scientist.' }], messages: helloBlocks },
  },
  multiTurn: {
    request: request({
      messages: [
        { role: 'user', content: 'Hello there.' },
        { role: 'assistant', content: "Hi, I'm Claude. How can I help you?" },
        { role: 'user', content: 'Can you explain LLMs in plain English?' },
      ],
    }),
    sent: {
      messages: [
        { role: 'user', content: [{ text: 'Hello there.' }] },
        { role: 'assistant', content: [{ text: "Hi, I'm Claude. How can I help you?" }] },
        { role: 'user', content: [{ text: 'Can you explain LLMs in plain English?' }] },
      ],
    },
  },
  image: {
    request: request({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${base64}` } },
            { type: 'text', text: 'What is in the above image?' },
          ],
        },
      ],
    }),
    sent: {
      messages: [
        {
          role: 'user',
          content: [
            { image: { format: 'jpeg', source: { bytes: base64 } } },
            { text: 'What is in the above image?' },
          ],
        },
      ],
    },
  },
  tools: {
    request: request({ tools: [topSong], tool_choice: 'required', max_tokens: 1024 }),
    sent: {
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'top_song',
              description: topSong.function.description,
              inputSchema: { json: topSong.function.parameters },
            },
          },
        ],
        toolChoice: { any: {} },
      },
      inferenceConfig: { maxTokens: 1024 },
    },
  },
  text: {
    request: request({}),
    reply: reply('converse.json'),
    answer: {
      text: "Hello! I'm Claude, an AI assistant made by Anthropic. How can I help you today?",
      finishReason: 'stop',
      // The prompt is the uncached input plus the cache reads and writes, as Bedrock's total says.
      usage: {
        promptTokens: 4108,
        completionTokens: 22,
        totalTokens: 4130,
        cachedTokens: 2048,
        cacheWriteTokens: 2048,
      },
    },
  },
  toolCall: {
    request: request({ tools: [topSong] }),
    reply: reply('converse-tool-use.json'),
    answer: {
      text: "I'll look up the most popular song on WZPZ.",
      tool: { name: 'top_song', arguments: { sign: 'WZPZ' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 375, completionTokens: 59, totalTokens: 434, cachedTokens: 0 },
    },
  },
  empty: {
    request: request({}),
    reply: reply('converse-empty.json'),
    answer: {
      text: '',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 0, totalTokens: 12 },
    },
  },
  filtered: {
    request: request({}),
    reply: reply('converse-guardrail.json'),
    answer: {
      text: 'Sorry, the model cannot answer this question.',
      finishReason: 'content_filter',
      usage: { promptTokens: 25, completionTokens: 0, totalTokens: 25 },
    },
  },
  stream: {
    request: request({ stream: true }),
    reply: stream('converse-stream.json'),
    answer: {
      text: 'Hello! Grüße 東京 🌸',
      finishReason: 'stop',
      usage: { promptTokens: 25, completionTokens: 15, totalTokens: 40, cachedTokens: 0 },
    },
  },
  streamedToolCall: {
    request: request({ stream: true, tools: [topSong] }),
    reply: stream('converse-stream-tool-use.json'),
    answer: {
      text: 'Let me check WZPZ.',
      tool: { name: 'top_song', arguments: { sign: 'WZPZ' } },
      finishReason: 'tool_calls',
      usage: { promptTokens: 375, completionTokens: 59, totalTokens: 434 },
    },
  },
  cutStream,
  errors: {
    badRequest: awsError('error-validation.json', 400, 'ValidationException'),
    unauthorized: awsError('error-unrecognized-client.json', 403, 'UnrecognizedClientException'),
    modelNotFound: awsError('error-resource-not-found.json', 404, 'ResourceNotFoundException'),
    rateLimited: awsError('error-throttling.json', 429, 'ThrottlingException'),
    serverError: awsError('error-internal.json', 500, 'InternalServerException'),
  },
})

describe('Bedrock specifics', () => {
  it('sends the stream to ConverseStream and the rest to Converse, the model id in the path', () => {
    const built = bedrockAdaptor.buildRequest(request({ stream: true }), channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse-stream',
    )
    expect(built.headers['x-amz-date']).toBe('20241128T080000Z')
    expect(built.headers.accept).toBe('application/vnd.amazon.eventstream')
  })

  it('refuses a model that has no Bedrock id, so another channel may serve it', () => {
    const built = bedrockAdaptor.buildRequest(request({ model: 'gpt-4o' }), channel)
    expect(built).toMatchObject({ kind: 'error', status: 400, code: 'model_not_found', retryable: true })
  })

  it('disables a channel whose key has no secret or region', () => {
    const built = bedrockAdaptor.buildRequest(request({}), { type: 33, key: 'AKIAONLY' })
    expect(built).toMatchObject({ kind: 'error', disableChannel: true })
  })

  it('disables the channel on an access denial (its keys lack the permission)', () => {
    const error = bedrockAdaptor.parseResponse(
      {
        ...awsError('error-access-denied.json', 403, 'AccessDeniedException'),
        headers: { 'x-amzn-errortype': 'AccessDeniedException' },
      },
      request({}),
    )
    expect(error).toMatchObject({ kind: 'error', disableChannel: true, retryable: true })
  })

  it('reports an exception inside the stream as the stream error, retried elsewhere', () => {
    const transformer = bedrockAdaptor.createStreamTransformer(request({ stream: true }), {} as never)
    const output = transformer.push(frames('converse-stream-throttled.json')) + transformer.finish(true)
    expect(transformer.streamError).toMatchObject({
      status: 429,
      code: 'throttlingException',
      retryable: true,
    })
    expect(transformer.answered).toBe(false)
    // The client that already got the opening chunk is told in OpenAI's error shape.
    expect(output).toContain(
      'data: {"error":{"message":"Too many requests, please wait before trying again."',
    )
  })

  it('passes Anthropic parameters to Claude models through additionalModelRequestFields', () => {
    const built = bedrockAdaptor.buildRequest(
      request({ top_k: 5, thinking: { type: 'enabled', budget_tokens: 2000 } }),
      channel,
    )
    if (built.kind !== 'request') throw new Error(built.message)
    expect(JSON.parse(String(built.body)).additionalModelRequestFields).toEqual({
      top_k: 5,
      thinking: { type: 'enabled', budget_tokens: 2000 },
    })
  })

  it('fails a corrupt frame as a stream error', () => {
    const bytes = Buffer.from(frames('converse-stream.json'))
    bytes[bytes.length - 1]! ^= 0xff
    const transformer = bedrockAdaptor.createStreamTransformer(request({ stream: true }), {} as never)
    transformer.push(bytes)
    expect(transformer.streamError).toMatchObject({ code: 'invalid_upstream_stream', retryable: true })
  })
})
