/**
 * The shared conformance suite every adaptor must pass: text, tools, a stream
 * with usage, and the mapping of upstream 4xx/429/5xx replies. Call it from an adaptor's test file.
 * Stream output is checked in OpenAI's chunk format, which native adaptors convert to.
 */
import { describe, expect, it } from 'vitest'
import type { Adaptor, ChannelCredentials, ParsedResponse, RelayRequest, UpstreamError } from '../adaptor.ts'
import type { Usage } from '../shared/usage.ts'
import { splitEvery } from './fixtures.ts'

export interface RecordedReply {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly body: Buffer
}

export interface ConformanceFixtures {
  readonly channel: ChannelCredentials
  readonly text: { request: RelayRequest; reply: RecordedReply; usage: Usage; text: string }
  readonly tools: { request: RelayRequest; reply: RecordedReply; toolName: string; usage: Usage }
  /** `request` must be a stream request whose client did not ask for usage. */
  readonly stream: { request: RelayRequest; reply: RecordedReply; usage: Usage; text: string }
  readonly errors: {
    badRequest: RecordedReply
    unauthorized: RecordedReply
    modelNotFound: RecordedReply
    rateLimited: RecordedReply
    serverError: RecordedReply
  }
}

const build = (adaptor: Adaptor, request: RelayRequest, channel: ChannelCredentials) => {
  const built = adaptor.buildRequest(request, channel)
  if (built.kind !== 'request') throw new Error(`buildRequest failed: ${built.message}`)
  return built
}

const parsed = (result: ParsedResponse | UpstreamError): ParsedResponse => {
  if (result.kind !== 'response') throw new Error(`parseResponse failed: ${result.message}`)
  return result
}

const failed = (result: ParsedResponse | UpstreamError): UpstreamError => {
  if (result.kind !== 'error') throw new Error('expected an error')
  return result
}

const headersOf = (reply: RecordedReply) => ({ 'content-type': 'application/json', ...reply.headers })

/** Runs the stream through the adaptor's transformer in pieces of `size` bytes. */
function replayStream(adaptor: Adaptor, fixtures: ConformanceFixtures, request: RelayRequest, size: number) {
  const built = build(adaptor, request, fixtures.channel)
  const transformer = adaptor.createStreamTransformer(request, built)
  let output = ''
  for (const piece of splitEvery(fixtures.stream.reply.body, size)) output += transformer.push(piece)
  output += transformer.finish()
  const events = output
    .split('\n\n')
    .filter((event) => event !== '')
    .map((event) => event.replace(/^data: /, ''))
  return { transformer, events, built }
}

export function runAdaptorConformance(adaptor: Adaptor, fixtures: ConformanceFixtures): void {
  describe(`adaptor conformance: ${adaptor.name}`, () => {
    it('relays a text completion with its usage and the upstream bytes untouched', () => {
      const built = build(adaptor, fixtures.text.request, fixtures.channel)
      expect(built.method).toBe('POST')
      expect(() => new URL(built.url)).not.toThrow()
      const reply = fixtures.text.reply
      const result = parsed(
        adaptor.parseResponse({ ...reply, headers: headersOf(reply) }, fixtures.text.request),
      )
      expect(result.usage).toEqual(fixtures.text.usage)
      expect(JSON.stringify(JSON.parse(result.body.toString()))).toContain(JSON.stringify(fixtures.text.text))
    })

    it('sends the tools upstream and returns the tool call', () => {
      const built = build(adaptor, fixtures.tools.request, fixtures.channel)
      expect(String(built.body)).toContain(fixtures.tools.toolName)
      const reply = fixtures.tools.reply
      const result = parsed(
        adaptor.parseResponse({ ...reply, headers: headersOf(reply) }, fixtures.tools.request),
      )
      expect(result.usage).toEqual(fixtures.tools.usage)
      expect(result.body.toString()).toContain(fixtures.tools.toolName)
    })

    it('asks for stream usage, keeps it from a client that did not ask, and ends with one [DONE]', () => {
      for (const size of [1, 7, 64, 100_000]) {
        const { transformer, events, built } = replayStream(adaptor, fixtures, fixtures.stream.request, size)
        expect(JSON.parse(String(built.body)).stream_options?.include_usage).toBe(true)
        expect(events.at(-1)).toBe('[DONE]')
        expect(events.filter((event) => event === '[DONE]')).toHaveLength(1)
        const chunks = events.slice(0, -1).map((event) => JSON.parse(event))
        expect(chunks.every((chunk) => chunk.choices.length > 0)).toBe(true)
        expect(transformer.usage).toEqual(fixtures.stream.usage)
        expect(transformer.completionText).toBe(fixtures.stream.text)
        expect(transformer.upstreamCompleted).toBe(true)
      }
    })

    it('forwards the usage chunk to a client that asked for it', () => {
      const request = { ...fixtures.stream.request, clientWantsUsage: true }
      const { events } = replayStream(adaptor, fixtures, request, 13)
      const last = JSON.parse(events.at(-2) as string)
      expect(last.choices).toEqual([])
      expect(last.usage.total_tokens).toBe(fixtures.stream.usage.totalTokens)
    })

    it('maps upstream errors for retry and channel disabling', () => {
      const request = fixtures.text.request
      const errorOf = (reply: RecordedReply) =>
        failed(adaptor.parseResponse({ ...reply, headers: headersOf(reply) }, request))
      const badRequest = errorOf(fixtures.errors.badRequest)
      expect(badRequest).toMatchObject({ status: 400, retryable: false, disableChannel: false })
      expect(badRequest.message).not.toBe('')
      expect(errorOf(fixtures.errors.unauthorized)).toMatchObject({ status: 401, disableChannel: true })
      expect(errorOf(fixtures.errors.modelNotFound)).toMatchObject({ status: 404, retryable: false })
      const rateLimited = errorOf(fixtures.errors.rateLimited)
      expect(rateLimited).toMatchObject({ status: 429, retryable: true, disableChannel: false })
      expect(errorOf(fixtures.errors.serverError)).toMatchObject({ retryable: true, disableChannel: false })
      expect(errorOf(fixtures.errors.serverError).status).toBeGreaterThanOrEqual(500)
    })
  })
}
