/**
 * Helpers of the conformance suite: replaying a recorded stream through an adaptor and reading
 * what an OpenAI client would make of the result.
 */
import { expect } from 'vitest'
import type {
  Adaptor,
  ChannelCredentials,
  ParsedResponse,
  RelayRequest,
  UpstreamError,
  UpstreamRequest,
} from '../adaptor.ts'
import type { Json } from '../shared/json.ts'
import { splitEvery } from './fixtures.ts'
import { schemaIssues } from './openai-schema.ts'

export interface RecordedReply {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly body: Buffer
}

export const build = (
  adaptor: Adaptor,
  request: RelayRequest,
  channel: ChannelCredentials,
): UpstreamRequest => {
  const built = adaptor.buildRequest(request, channel)
  if (built.kind !== 'request') throw new Error(`buildRequest failed: ${built.message}`)
  return built
}

export const parsed = (result: ParsedResponse | UpstreamError): ParsedResponse => {
  if (result.kind !== 'response') throw new Error(`parseResponse failed: ${result.message}`)
  return result
}

export const failed = (result: ParsedResponse | UpstreamError): UpstreamError => {
  if (result.kind !== 'error') throw new Error('expected an error')
  return result
}

export const headersOf = (reply: RecordedReply) => ({ 'content-type': 'application/json', ...reply.headers })

/** The answer an OpenAI client gets, checked against OpenAI's published schema. */
export function chatCompletionOf(result: ParsedResponse): Json {
  const completion = JSON.parse(result.body.toString('utf8'))
  expect(schemaIssues('CreateChatCompletionResponse', completion)).toEqual([])
  return completion
}

export interface ReplayedStream {
  transformer: ReturnType<Adaptor['createStreamTransformer']>
  /** The payload of each event the client got (`[DONE]` included). */
  events: string[]
  /** The parsed chunks (every event but `[DONE]` and comments). */
  chunks: Json[]
}

/** Runs `bytes` through the adaptor's transformer in pieces of `size`; `complete` false: cut there. */
export function replayStream(
  adaptor: Adaptor,
  channel: ChannelCredentials,
  request: RelayRequest,
  bytes: Buffer,
  size: number,
  complete = true,
): ReplayedStream {
  const built = build(adaptor, request, channel)
  const transformer = adaptor.createStreamTransformer(request, built)
  let output = ''
  for (const piece of splitEvery(bytes, size)) output += transformer.push(piece)
  output += transformer.finish(complete)
  const events = output
    .split('\n\n')
    .filter((event) => event !== '' && !event.startsWith(':'))
    .map((event) => event.replace(/^data: /, ''))
  const chunks = events.filter((event) => event !== '[DONE]').map((event) => JSON.parse(event))
  for (const chunk of chunks) expect(schemaIssues('CreateChatCompletionStreamResponse', chunk)).toEqual([])
  return { transformer, events, chunks }
}

/** What the chunks of a stream add up to, as an OpenAI client assembles them. */
export function assembled(chunks: Json[]) {
  let text = ''
  let reasoning = ''
  let finishReason: unknown = null
  const tools = new Map<number, { name: string; arguments: string }>()
  for (const chunk of chunks) {
    const choice = (chunk.choices as Json[])[0]
    if (!choice) continue
    const delta = (choice.delta ?? {}) as Json
    if (typeof delta.content === 'string') text += delta.content
    if (typeof delta.reasoning_content === 'string') reasoning += delta.reasoning_content
    for (const call of (delta.tool_calls ?? []) as Json[]) {
      const index = call.index as number
      const fn = (call.function ?? {}) as Json
      const tool = tools.get(index) ?? { name: '', arguments: '' }
      if (typeof fn.name === 'string') tool.name += fn.name
      if (typeof fn.arguments === 'string') tool.arguments += fn.arguments
      tools.set(index, tool)
    }
    if (choice.finish_reason != null) finishReason = choice.finish_reason
  }
  return { text, reasoning, finishReason, tools: [...tools.values()] }
}
