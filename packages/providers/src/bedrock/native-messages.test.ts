/**
 * The InvokeModel path for Messages clients on Bedrock: Anthropic's events unwrapped from the
 * `chunk` frames of InvokeModelWithResponseStream (encoded by AWS's codec), an exception passed
 * on as Anthropic's error event, and a cut stream never closed as complete.
 */
import { type BedrockStreamEvent, encodeBedrockEvents } from '@one-api/mock-upstream'
import { describe, expect, it } from 'vitest'
import type { RelayRequest } from '../adaptor.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { bedrockMessagesAdaptor } from './native-messages.ts'

const native = {
  model: 'claude-3-5-haiku-20241022',
  max_tokens: 50,
  stream: true,
  messages: [{ role: 'user', content: 'Hi' }],
}
const request: RelayRequest = {
  ...jsonRelayRequest(
    'chat',
    { model: native.model, messages: native.messages, stream: true },
    { receivedAt: 1_732_780_800 },
  ),
  clientApi: 'anthropic',
  native: { json: native, body: Buffer.from(JSON.stringify(native)) },
}
const channel = { type: 33, key: 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|us-east-1' }
const chunk = (event: Record<string, unknown>): BedrockStreamEvent => ({
  event: 'chunk',
  payload: { bytes: Buffer.from(JSON.stringify(event)).toString('base64') },
})
const start = chunk({
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [],
    model: native.model,
    usage: { input_tokens: 9, output_tokens: 1 },
  },
})
const text = chunk({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } })

function replay(events: BedrockStreamEvent[], complete = true) {
  const built = bedrockMessagesAdaptor.buildRequest(request, channel)
  if (built.kind !== 'request') throw new Error(built.message)
  const transformer = bedrockMessagesAdaptor.createStreamTransformer(request, built)
  const bytes = encodeBedrockEvents(events)
  let output = ''
  for (let offset = 0; offset < bytes.length; offset += 11)
    output += transformer.push(bytes.subarray(offset, offset + 11))
  return { transformer, output: output + transformer.finish(complete), built }
}

describe('Bedrock InvokeModel for Messages clients', () => {
  it('sends the client body to invoke-with-response-stream and unwraps the events it carries', () => {
    const stop = chunk({ type: 'message_stop', 'amazon-bedrock-invocationMetrics': { inputTokenCount: 9 } })
    const delta = chunk({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 3 },
    })
    const { transformer, output, built } = replay([start, text, delta, stop])
    expect(built.url).toBe(
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream',
    )
    expect(JSON.parse(String(built.body))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 50,
      messages: native.messages,
    })
    expect(output).toContain('event: content_block_delta\ndata: {"type":"content_block_delta"')
    expect(output.match(/event: message_stop/g)).toHaveLength(1)
    expect(transformer.usage).toMatchObject({ promptTokens: 9, completionTokens: 3 })
    expect(transformer.upstreamCompleted).toBe(true)
  })

  it('passes an exception on as an Anthropic error event, retried elsewhere before any answer', () => {
    const { transformer, output } = replay([
      start,
      {
        exception: 'throttlingException',
        payload: { message: 'Too many requests, please wait before trying again.' },
      },
    ])
    expect(transformer.streamError).toMatchObject({ status: 429, retryable: true })
    expect(transformer.answered).toBe(false)
    expect(output).toContain('event: error\ndata: {"type":"error","error":{"type":"rate_limit_error"')
    expect(output).not.toContain('message_stop')
  })

  it('never closes a cut stream as complete', () => {
    const { transformer, output } = replay([start, text], false)
    expect(output).toContain('Hello')
    expect(output).not.toContain('message_stop')
    expect(transformer.upstreamCompleted).toBe(false)
  })
})
