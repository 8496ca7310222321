/**
 * The shared conformance suite every adaptor must pass, OpenAI-compatible included: what it sends
 * upstream for a plain, a system-prompted, a multi-turn, an image and a tool request; what an
 * OpenAI client gets back for text, a tool call, an empty and a filtered answer (checked against
 * OpenAI's published schema); streams of text and of a tool call, with and without the usage
 * chunk, and one cut short; and the mapping of 400/401/404/429/5xx for retry and channel disabling.
 * Fixtures are the provider's documented wire bodies, stored beside the adaptor. A case that does
 * not apply to a provider (no stream, no system prompt) is named in `notApplicable` with the
 * reason, and reported as skipped with it.
 */
import { describe, expect, it } from 'vitest'
import type { Adaptor, ChannelCredentials, RelayRequest } from '../adaptor.ts'
import type { Usage } from '../shared/usage.ts'
import {
  assembled,
  build,
  chatCompletionOf,
  failed,
  headersOf,
  parsed,
  type RecordedReply,
  replayStream,
} from './conformance-replay.ts'

export type { RecordedReply }

/** A request and what the upstream must be sent for it (a subset of the upstream's JSON body). */
export interface SentCase {
  readonly request: RelayRequest
  readonly sent: Record<string, unknown>
}

/** What the client must get: text, the tool called, the finish reason and the usage billed. */
export interface Answer {
  readonly text?: string
  readonly reasoning?: string
  readonly tool?: { name: string; arguments: Record<string, unknown> }
  readonly finishReason: string
  /**
   * The usage billed (the fields given are compared); absent for a provider that reports none:
   * the answer then carries no usage and its text is what the gateway counts.
   */
  readonly usage?: Partial<Usage> & Pick<Usage, 'totalTokens'>
}

/** The suite's cases, as `notApplicable` names them. */
export type ConformanceCase =
  | 'system'
  | 'multiTurn'
  | 'image'
  | 'tools'
  | 'toolCall'
  | 'empty'
  | 'filtered'
  | 'stream'
  | 'streamedToolCall'
  | 'usageChunk'
  | 'cutStream'

export interface AnswerCase {
  readonly request: RelayRequest
  readonly reply: RecordedReply
  readonly answer: Answer
  /** What the upstream must be sent for it, when the case checks that too. */
  readonly sent?: Record<string, unknown>
}

export interface ConformanceFixtures {
  readonly channel: ChannelCredentials
  /**
   * The header that carries the channel's key upstream (or `?name`, a query parameter of the URL),
   * and its value (a pattern where the value is a signature over each request).
   */
  readonly auth: readonly [name: string, value: string | RegExp]
  readonly plain: SentCase
  /** Left out only with a reason in notApplicable, as are multiTurn, empty and stream. */
  readonly system?: SentCase
  readonly multiTurn?: SentCase
  /** Left out only for a provider without image input (the case is then reported as skipped). */
  readonly image?: SentCase
  /** Left out only for a provider without function calling, with toolCall and streamedToolCall. */
  readonly tools?: SentCase
  readonly text: AnswerCase
  readonly toolCall?: AnswerCase
  readonly empty?: AnswerCase
  /** Left out for a provider that never reports a filtered answer (Ollama has no content filter). */
  readonly filtered?: AnswerCase
  /** Stream requests whose client did not ask for usage. */
  readonly stream?: AnswerCase
  readonly streamedToolCall?: AnswerCase
  /**
   * The stream reply cut between two events past the answer's first content, for a framing other
   * than SSE (by default the SSE stream is cut at the first blank line past its middle).
   */
  readonly cutStream?: Buffer
  readonly errors: {
    badRequest: RecordedReply
    unauthorized: RecordedReply
    modelNotFound: RecordedReply
    rateLimited: RecordedReply
    serverError: RecordedReply
  }
  /**
   * The cases that do not apply to this provider, each with the reason (reported with the skipped
   * case). A case named here must not be given; `system`, `multiTurn`, `empty` and `stream` may be
   * left out only when named here. Without a stream, the usage-chunk and cut-stream cases go too.
   */
  readonly notApplicable?: Partial<Record<ConformanceCase, string>>
}

/** Cases every provider has unless it says why not. */
const EXPECTED_CASES = ['system', 'multiTurn', 'empty', 'stream'] as const

/** Refuses fixtures that give a case they call not applicable, or leave one out without a reason. */
function checkDeclaredCases(fixtures: ConformanceFixtures): void {
  const declared = fixtures.notApplicable ?? {}
  const given = fixtures as unknown as Record<string, unknown>
  for (const name of Object.keys(declared)) {
    if (given[name] !== undefined)
      throw new Error(`conformance case ${name} is given and declared not applicable`)
  }
  for (const name of EXPECTED_CASES) {
    if (given[name] === undefined && declared[name] === undefined)
      throw new Error(`conformance case ${name} is left out without a reason in notApplicable`)
  }
}

const sentBody = (adaptor: Adaptor, fixtures: ConformanceFixtures, testCase: SentCase) => {
  const built = build(adaptor, testCase.request, fixtures.channel)
  expect(built.method).toBe('POST')
  expect(() => new URL(built.url)).not.toThrow()
  const [name, value] = fixtures.auth
  // A name starting with '?' is a query parameter of the URL (Baidu's access_token).
  const given = name.startsWith('?')
    ? new URL(built.url).searchParams.get(name.slice(1))
    : built.headers[name]
  if (typeof value === 'string') expect(given).toBe(value)
  else expect(given).toMatch(value)
  return JSON.parse(String(built.body))
}

function expectAnswer(adaptor: Adaptor, testCase: AnswerCase) {
  const { reply, answer } = testCase
  const result = parsed(adaptor.parseResponse({ ...reply, headers: headersOf(reply) }, testCase.request))
  if (answer.usage) expect(result.usage).toMatchObject(answer.usage)
  else {
    expect(result.usage).toBeUndefined()
    if (answer.text !== undefined) expect(result.completionText).toBe(answer.text)
  }
  const completion = chatCompletionOf(result)
  // biome-ignore lint/suspicious/noExplicitAny: a parsed answer, checked field by field below
  const choice = (completion.choices as Record<string, any>[])[0]!
  expect(choice.finish_reason).toBe(answer.finishReason)
  if (answer.text !== undefined) expect(choice.message.content ?? '').toBe(answer.text)
  if (answer.reasoning !== undefined) expect(choice.message.reasoning_content).toBe(answer.reasoning)
  if (answer.tool) {
    expect(choice.message.tool_calls[0].function.name).toBe(answer.tool.name)
    expect(JSON.parse(choice.message.tool_calls[0].function.arguments)).toEqual(answer.tool.arguments)
  }
  if (answer.usage) {
    expect((completion.usage as Record<string, number>).total_tokens).toBe(answer.usage.totalTokens)
  }
}

function expectStream(adaptor: Adaptor, fixtures: ConformanceFixtures, testCase: AnswerCase) {
  const { answer } = testCase
  if (testCase.sent) expect(sentBody(adaptor, fixtures, testCase as SentCase)).toMatchObject(testCase.sent)
  for (const size of [1, 7, 64, 100_000]) {
    const replay = replayStream(adaptor, fixtures.channel, testCase.request, testCase.reply.body, size)
    expect(replay.events.at(-1)).toBe('[DONE]')
    expect(replay.events.filter((event) => event === '[DONE]')).toHaveLength(1)
    // The client did not ask for usage: no usage-only chunk reaches it.
    expect(replay.chunks.every((chunk) => (chunk.choices as unknown[]).length > 0)).toBe(true)
    const result = assembled(replay.chunks)
    if (answer.text !== undefined) expect(result.text).toBe(answer.text)
    if (answer.tool) {
      expect(result.tools[0]?.name).toBe(answer.tool.name)
      expect(JSON.parse(result.tools[0]!.arguments)).toEqual(answer.tool.arguments)
    }
    expect(result.finishReason).toBe(answer.finishReason)
    if (answer.usage) expect(replay.transformer.usage).toMatchObject(answer.usage)
    else {
      expect(replay.transformer.usage).toBeUndefined()
      if (answer.text !== undefined) expect(replay.transformer.completionText).toBe(answer.text)
    }
    expect(replay.transformer.upstreamCompleted).toBe(true)
    expect(replay.transformer.answered).toBe(true)
  }
}

export function runAdaptorConformance(adaptor: Adaptor, fixtures: ConformanceFixtures): void {
  checkDeclaredCases(fixtures)
  const declared = fixtures.notApplicable ?? {}
  const noStream = declared.stream === undefined ? undefined : `no stream: ${declared.stream}`
  /** A case run when its fixture is there; skipped, with the reason when one is declared, otherwise. */
  const testCase = <T>(
    name: ConformanceCase | undefined,
    title: string,
    given: T | undefined,
    run: (given: T) => void,
  ) => {
    const reason =
      name === undefined
        ? undefined
        : (declared[name] ?? (name === 'usageChunk' || name === 'cutStream' ? noStream : undefined))
    if (given === undefined || reason !== undefined) {
      it.skip(reason === undefined ? title : `${title} (not applicable: ${reason})`, () => {})
      return
    }
    it(title, () => run(given))
  }
  const { stream } = fixtures

  describe(`adaptor conformance: ${adaptor.name}`, () => {
    it('sends a plain request with the mapped model and the channel key', () => {
      expect(sentBody(adaptor, fixtures, fixtures.plain)).toMatchObject(fixtures.plain.sent)
    })

    testCase('system', 'sends the system prompt where the provider takes it', fixtures.system, (system) =>
      expect(sentBody(adaptor, fixtures, system)).toMatchObject(system.sent),
    )

    testCase('multiTurn', 'sends every turn of a conversation, in order', fixtures.multiTurn, (turns) =>
      expect(sentBody(adaptor, fixtures, turns)).toMatchObject(turns.sent),
    )

    testCase('image', 'sends image input', fixtures.image, (image) =>
      expect(sentBody(adaptor, fixtures, image)).toMatchObject(image.sent),
    )

    testCase('tools', 'sends the tools and the tool choice', fixtures.tools, (tools) =>
      expect(sentBody(adaptor, fixtures, tools)).toMatchObject(tools.sent),
    )

    it('returns a text answer with its usage', () => expectAnswer(adaptor, fixtures.text))
    testCase('toolCall', 'returns a tool call', fixtures.toolCall, (call) => expectAnswer(adaptor, call))
    testCase('empty', 'returns an empty answer as an answer', fixtures.empty, (empty) =>
      expectAnswer(adaptor, empty),
    )
    testCase(
      'filtered',
      'returns a filtered answer with finish reason content_filter',
      fixtures.filtered,
      (filtered) => expectAnswer(adaptor, filtered),
    )

    testCase(
      'stream',
      'streams text chunks, keeps usage from a client that did not ask, ends with one [DONE]',
      stream,
      (given) => expectStream(adaptor, fixtures, given),
    )

    testCase('streamedToolCall', 'streams a tool call', fixtures.streamedToolCall, (call) =>
      expectStream(adaptor, fixtures, call),
    )

    testCase('usageChunk', 'forwards the usage chunk to a client that asked for it', stream, (given) => {
      const request = { ...given.request, clientWantsUsage: true }
      const { events } = replayStream(adaptor, fixtures.channel, request, given.reply.body, 13)
      const last = JSON.parse(events.at(-2) as string)
      expect(last.choices).toEqual([])
      expect(last.usage.total_tokens).toBe(given.answer.usage?.totalTokens)
    })

    testCase(
      'cutStream',
      'passes on what a cut stream carried and never closes it as complete',
      stream,
      (given) => {
        const bytes = given.reply.body
        // Cut between two events (LF or CRLF line ends), past the answer's first content, unless the
        // fixtures give a cut of their own (framings other than SSE).
        const middle = Math.floor(bytes.length / 2)
        const ends = [bytes.indexOf('\n\n', middle) + 2, bytes.indexOf('\r\n\r\n', middle) + 4]
        const half = fixtures.cutStream ?? bytes.subarray(0, Math.min(...ends.filter((end) => end > middle)))
        const replay = replayStream(adaptor, fixtures.channel, given.request, half, 5, false)
        expect(replay.events).not.toContain('[DONE]')
        expect(replay.transformer.upstreamCompleted).toBe(false)
        expect(replay.chunks.length).toBeGreaterThan(0)
      },
    )

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
