/**
 * Messages API clients (`/v1/messages`) asking a Bedrock channel for a Llama model: served through
 * the Messages bridge around Converse (InvokeModel speaks Anthropic's body for Claude only). The
 * Converse body carries the system prompt and the sampling Llama takes, none of Claude's own fields;
 * Bedrock's documented answer and event stream come back as Anthropic's message and events.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html
 */
import { type BedrockStreamEvent, encodeBedrockEvents } from '@one-api/mock-upstream'
import { describe, expect, it } from 'vitest'
import type { RelayRequest } from '../adaptor.ts'
import { messagesToChatRequest } from '../anthropic-client/to-chat-request.ts'
import { getAdaptor } from '../registry.ts'
import { fixtureLoader } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'

type Json = Record<string, unknown>
const fixture = fixtureLoader(new URL('./__fixtures__/', import.meta.url))
const adaptor = getAdaptor(33, 'anthropic')!
const channel = { type: 33, key: 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|us-east-1' }

function clientRequest(native: Json): RelayRequest {
  const chat = messagesToChatRequest(native)
  return {
    ...jsonRelayRequest('chat', chat, { receivedAt: 1_732_780_800 }),
    clientApi: 'anthropic',
    native: { json: native, body: Buffer.from(JSON.stringify(native)) },
  }
}
const ask = (extra: Json = {}): Json => ({
  model: 'llama3-8b-8192',
  max_tokens: 100,
  system: 'Be brief',
  top_k: 5,
  temperature: 0.3,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
})

describe('Llama on Bedrock for Messages clients', () => {
  it('calls Converse for the mapped Llama id with the system prompt and no Claude-only fields', () => {
    const built = adaptor.buildRequest(clientRequest(ask()), channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/meta.llama3-8b-instruct-v1%3A0/converse',
    )
    expect(built.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\//)
    const body = JSON.parse(String(built.body)) as Json
    expect(body).toMatchObject({
      system: [{ text: 'Be brief' }],
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      inferenceConfig: { maxTokens: 100, temperature: 0.3 },
    })
    expect(body).not.toHaveProperty('additionalModelRequestFields')
  })

  it("answers Bedrock's Converse answer as an Anthropic message with its usage", () => {
    const request = clientRequest(ask())
    const body = fixture('converse-llama.json')
    const parsed = adaptor.parseResponse({ status: 200, headers: {}, body }, request)
    if (parsed.kind !== 'response') throw new Error(parsed.message)
    expect(JSON.parse(parsed.body.toString())).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'text', text: "Hello! It's nice to meet you. Is there something I can help you with?" },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 25, output_tokens: 18 },
    })
    expect(parsed.usage).toMatchObject({ promptTokens: 25, completionTokens: 18, totalTokens: 43 })
  })

  it('streams ConverseStream frames as Anthropic events, ending with message_stop', () => {
    const request = clientRequest(ask({ stream: true }))
    const built = adaptor.buildRequest(request, channel)
    if (built.kind !== 'request') throw new Error(built.message)
    expect(built.url).toMatch(/\/converse-stream$/)
    const events = JSON.parse(fixture('converse-stream.json').toString()) as BedrockStreamEvent[]
    const transformer = adaptor.createStreamTransformer(request, built)
    const output = String(transformer.push(encodeBedrockEvents(events))) + transformer.finish()
    const data = output
      .split('\n\n')
      .filter((event) => event.includes('data: {'))
      .map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 6)) as Json)
    const text = data
      .map((event) => ((event.delta as Json | undefined)?.text as string | undefined) ?? '')
      .join('')
    expect(text).toBe('Hello! Grüße 東京 🌸')
    expect(data.map((event) => event.type)).toContain('message_delta')
    expect(data.at(-1)).toEqual({ type: 'message_stop' })
    expect(transformer.usage).toMatchObject({ promptTokens: 25, completionTokens: 15 })
  })
})
