/**
 * Writes an OpenAI chat completion stream for adaptors whose upstream streams another format
 * (Cohere's events, Ollama's NDJSON lines): the opening role chunk, content, reasoning and tool call
 * deltas, the finish chunk, the usage-only chunk when the client asked for it, and one [DONE].
 * It also keeps what the pipeline reads of a stream (StreamTransformer's fields).
 * https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { DONE_EVENT } from './openai-stream.ts'
import { toOpenAiErrorBody } from './upstream-error.ts'
import type { Usage } from './usage.ts'

type Json = Record<string, unknown>

/** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
const TEXT_CAP = 1 << 20

/** OpenAI's usage object. */
export function openAiUsageOf(usage: Usage): Json {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  }
}

export class ChatChunkWriter {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  keepAlives = 0
  streamError: UpstreamError | undefined
  /** The answer's id and model, as the upstream names them once it does. */
  id = 'chatcmpl'
  model: string
  private output = ''
  private opened = false
  private done = false
  /** `data: ` and a chunk's JSON up to its delta, for the id and model it was built with. */
  private chunkStart = ''
  private chunkStartId = ''
  private chunkStartModel = ''

  /** usageOf writes the usage chunk's object (a provider may add its own counts to OpenAI's). */
  constructor(
    private readonly request: RelayRequest,
    private readonly usageOf: (usage: Usage) => Json = openAiUsageOf,
  ) {
    this.model = request.mappedModel
  }

  get ended(): boolean {
    return this.done
  }

  /** What was written since the last call. */
  take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  keepAlive(): void {
    if (this.done) return
    this.keepAlives += 1
    this.output += ': keep-alive\n\n'
  }

  /** The chunk that opens the answer (its role); written once, before anything else. */
  open(): void {
    if (this.opened || this.done) return
    this.opened = true
    this.emit({ role: 'assistant', content: '' }, null)
  }

  text(field: 'content' | 'reasoning_content', text: string): void {
    if (text === '' || this.done) return
    this.open()
    this.count(text)
    this.answered = true
    this.emit({ [field]: text }, null)
  }

  toolStart(index: number, id: string, name: string): void {
    if (this.done) return
    this.open()
    this.count(name)
    this.answered = true
    this.emit({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] }, null)
  }

  /** A whole function call in one chunk (for upstreams that send a call at once). */
  toolCall(index: number, id: string, name: string, args: string): void {
    if (this.done) return
    this.open()
    this.count(name + args)
    this.answered = true
    this.emit({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] }, null)
  }

  toolArguments(index: number, text: string): void {
    if (text === '' || this.done) return
    this.open()
    this.count(text)
    this.answered = true
    this.emit({ tool_calls: [{ index, function: { arguments: text } }] }, null)
  }

  finishReason(reason: string): void {
    if (this.done) return
    this.open()
    this.answered = true
    this.emit({}, reason)
  }

  /** The upstream said its answer is complete: the usage chunk if the client asked, then [DONE]. */
  end(): void {
    if (this.done) return
    this.upstreamCompleted = true
    this.close(true)
  }

  /**
   * [DONE] without the upstream's word that it finished (finish(true) of a transformer); withUsage
   * first writes the usage chunk if the client asked (for upstreams that send no end marker).
   */
  close(withUsage = false): void {
    if (this.done) return
    if (withUsage && this.request.clientWantsUsage && this.usage) {
      this.output += `data: ${JSON.stringify({ ...this.head(), choices: [], usage: this.usageOf(this.usage) })}\n\n`
    }
    this.done = true
    this.output += DONE_EVENT
  }

  error(error: UpstreamError): void {
    if (this.done) return
    this.streamError = error
    this.output += `data: ${toOpenAiErrorBody(error)}\n\n`
  }

  private count(text: string): void {
    this.completionTextLength += text.length
    if (this.completionText.length < TEXT_CAP)
      this.completionText += text.slice(0, TEXT_CAP - this.completionText.length)
  }

  private head(): Json {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.request.receivedAt ?? 0,
      model: this.model,
    }
  }

  /**
   * One chunk event, the same bytes as JSON.stringify of `{ ...head(), choices: [{ index: 0, delta,
   * logprobs: null, finish_reason }] }`: the part before the delta is built once per id and model,
   * as every chunk of a stream shares it.
   */
  private emit(delta: Json, finish: string | null): void {
    if (this.chunkStart === '' || this.chunkStartId !== this.id || this.chunkStartModel !== this.model) {
      this.chunkStartId = this.id
      this.chunkStartModel = this.model
      const head = JSON.stringify({ ...this.head(), choices: [] })
      this.chunkStart = `data: ${head.slice(0, -3)}[{"index":0,"delta":`
    }
    const reason = finish === null ? 'null' : JSON.stringify(finish)
    this.output += `${this.chunkStart}${JSON.stringify(delta)},"logprobs":null,"finish_reason":${reason}}]}\n\n`
  }
}

/** A stream transformer that writes through a ChatChunkWriter: the pipeline reads the writer's fields. */
export abstract class ChatWriterStream implements StreamTransformer {
  constructor(protected readonly writer: ChatChunkWriter) {}

  abstract push(chunk: Buffer): string
  abstract finish(complete?: boolean): string

  get usage() {
    return this.writer.usage
  }
  get completionText() {
    return this.writer.completionText
  }
  get completionTextLength() {
    return this.writer.completionTextLength
  }
  get upstreamCompleted() {
    return this.writer.upstreamCompleted
  }
  get answered() {
    return this.writer.answered
  }
  get keepAlives() {
    return this.writer.keepAlives
  }
  get streamError() {
    return this.writer.streamError
  }
}
