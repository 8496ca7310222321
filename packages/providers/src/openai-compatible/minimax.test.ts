/**
 * MiniMax (type 27) failures answered with HTTP 200 and a failing `base_resp`, in answers and in
 * stream events, classified for the client, the retry policy and the channel monitor; bodies in
 * the shape of MiniMax's documented answers (`__fixtures__/providers/minimax-*`).
 */
import { describe, expect, it } from 'vitest'
import { getAdaptor } from '../registry.ts'
import { build, failed, parsed } from '../testing/conformance-replay.ts'
import { fixtureLoader, splitEvery } from '../testing/fixtures.ts'
import { jsonRelayRequest } from '../testing/relay-request.ts'
import { openAiCompatibleAdaptor } from './adaptor.ts'
import { minimaxAdaptor } from './minimax.ts'

const fixture = fixtureLoader(new URL('./__fixtures__/providers/', import.meta.url))
const channel = { type: 27, key: 'sk-minimax' }
const ask = (stream = false) =>
  jsonRelayRequest('chat', {
    model: 'MiniMax-Text-01',
    messages: [{ role: 'user', content: 'Hello' }],
    stream,
  })
const json = { 'content-type': 'application/json' }
const answer = (name: string, stream = false) =>
  minimaxAdaptor.parseResponse({ status: 200, headers: json, body: fixture(name) }, ask(stream))

describe('MiniMax errors inside HTTP 200 answers', () => {
  it('is the adaptor of type 27 only', () => {
    expect(getAdaptor(27)).toBe(minimaxAdaptor)
    expect(getAdaptor(1)).toBe(openAiCompatibleAdaptor)
    expect(build(minimaxAdaptor, ask(), channel).url).toBe(
      'https://api.minimax.chat/v1/text/chatcompletion_v2',
    )
  })

  it('reads a successful answer (base_resp status 0) as before, with its usage', () => {
    const result = parsed(answer('minimax.json'))
    expect(result.body).toEqual(fixture('minimax.json'))
    expect(result.usage).toMatchObject({ promptTokens: 59, completionTokens: 11, totalTokens: 70 })
  })

  it.each([
    // code, status, error code, retried on another channel, channel disabled
    [1004, 401, 'invalid_api_key', true, true],
    [1008, 429, 'insufficient_quota', true, true],
    [1002, 429, 'rate_limit_exceeded', true, false],
    [1039, 429, 'rate_limit_exceeded', true, false],
    [1026, 400, 'content_policy_violation', false, false],
    [1027, 400, 'content_policy_violation', false, false],
    [2013, 400, 'invalid_request', false, false],
  ])(
    'maps status_code %i to %i %s (retryable %s, disables %s)',
    (code, status, errorCode, retryable, disables) => {
      for (const stream of [false, true]) {
        const error = failed(answer(`minimax-error-${code}.json`, stream))
        expect(error).toMatchObject({ status, code: errorCode, retryable, disableChannel: disables })
        expect(error.message).toMatch(new RegExp(`^MiniMax error ${code}: .+`))
      }
    },
  )

  it('treats an unknown failing code as the upstream failing (502, tried elsewhere)', () => {
    const body = Buffer.from(
      '{"choices":null,"base_resp":{"status_code":1024,"status_msg":"internal error"}}',
    )
    const error = failed(minimaxAdaptor.parseResponse({ status: 200, headers: json, body }, ask()))
    expect(error).toMatchObject({ status: 502, retryable: true, disableChannel: false })
  })

  it('leaves other OpenAI-format types alone: they do not read base_resp', () => {
    const reply = { status: 200, headers: json, body: fixture('minimax-error-1004.json') }
    const error = failed(openAiCompatibleAdaptor.parseResponse(reply, ask()))
    expect(error.code).toBe('invalid_upstream_response')
    expect(error.disableChannel).toBe(false)
  })
})

/** Runs a MiniMax stream through the adaptor's transformer in pieces of `size`. */
function replay(name: string, size: number) {
  const request = ask(true)
  const transformer = minimaxAdaptor.createStreamTransformer(request, build(minimaxAdaptor, request, channel))
  let output = ''
  for (const piece of splitEvery(fixture(name), size)) output += transformer.push(piece)
  output += transformer.finish()
  return { transformer, output }
}

describe('MiniMax errors inside streams', () => {
  it.each([1, 7, 4096])('passes a successful stream with its usage (pieces of %i bytes)', (size) => {
    const { transformer, output } = replay('minimax-stream.sse', size)
    expect(transformer.streamError).toBeUndefined()
    expect(transformer.answered).toBe(true)
    expect(transformer.usage).toMatchObject({ promptTokens: 59, completionTokens: 11 })
    expect(output.match(/^data: \{/gm)).toHaveLength(3)
    expect(output.endsWith('data: [DONE]\n\n')).toBe(true)
  })

  it.each([1, 7, 4096])('records a refused input as the stream error, before any answer (%i)', (size) => {
    const { transformer, output } = replay('minimax-stream-refused-input.sse', size)
    expect(transformer.streamError).toMatchObject({
      status: 400,
      code: 'content_policy_violation',
      retryable: false,
      disableChannel: false,
    })
    // Nothing answered: the relay fails the attempt with this error, unbilled.
    expect(transformer.answered).toBe(false)
    expect(output).not.toContain('base_resp')
  })

  it.each([1, 7, 4096])('records a refused output after some text and drops its event (%i)', (size) => {
    const { transformer, output } = replay('minimax-stream-refused.sse', size)
    expect(transformer.streamError).toMatchObject({ status: 400, code: 'content_policy_violation' })
    expect(transformer.streamError!.message).toBe('MiniMax error 1027: output new_sensitive')
    expect(output).toContain('你好！')
    // The refusal's `choices: null` would break clients that index choices[0]: it is not passed on.
    expect(output).not.toContain('base_resp')
  })
})
