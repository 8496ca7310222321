/**
 * Builds an OpenAI chat completion stream from a provider's own stream: the provider's adaptor
 * reads each of its events and calls text(), toolCall(), finish(), setUsage() and complete(); this
 * class writes the `chat.completion.chunk` events, keeps the generated text for a local count,
 * adds the usage-only chunk when the client asked for it, and guarantees one final `[DONE]`.
 * https://platform.openai.com/docs/api-reference/chat-streaming
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import type { Json } from './json.ts'
import { DONE_EVENT } from './openai-stream.ts'
import { type SseEvent, SseParser } from './sse.ts'
import { toOpenAiErrorBody } from './upstream-error.ts'
import type { Usage } from './usage.ts'

/** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
const TEXT_CAP = 1 << 20

export interface StreamedToolCall {
  readonly index: number
  readonly id?: string
  readonly name?: string
  readonly arguments?: string
}

/** OpenAI's usage object for a normalised usage. */
export function openAiUsageOf(usage: Usage): Json {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  }
}

export abstract class ChatChunkStream implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  keepAlives = 0
  streamError: UpstreamError | undefined
  protected id: string
  protected model: string
  private output = ''
  private doneSent = false
  private opened = false
  private readonly parser = new SseParser(
    (event) => {
      if (!this.doneSent) this.onEvent(event)
    },
    () => this.onKeepAlive(),
  )

  constructor(protected readonly request: RelayRequest) {
    this.model = request.mappedModel
    this.id = `chatcmpl-${request.receivedAt ?? 0}`
  }

  /** One event of the provider's stream. */
  protected abstract onEvent(event: SseEvent): void

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete && !this.doneSent) this.complete()
    return this.take()
  }

  /** Generated text (content or reasoning) as one chunk. */
  protected text(text: string, field: 'content' | 'reasoning_content' = 'content'): void {
    if (text === '') return
    this.addText(text)
    this.answered = true
    this.emit({ [field]: text }, null)
  }

  protected toolCall(call: StreamedToolCall): void {
    const entry: Json = { index: call.index }
    if (call.id) entry.id = call.id
    if (call.id || call.name) entry.type = 'function'
    const fn: Json = {}
    if (call.name !== undefined) fn.name = call.name
    if (call.arguments !== undefined) fn.arguments = call.arguments
    entry.function = fn
    this.addText(`${call.name ?? ''}${call.arguments ?? ''}`)
    this.answered = true
    this.emit({ tool_calls: [entry] }, null)
  }

  protected finishReason(reason: string): void {
    this.answered = true
    this.emit({}, reason)
  }

  protected setUsage(usage: Usage | undefined): void {
    if (usage) this.usage = usage
  }

  /** The provider said its answer is complete: the usage chunk (if asked for), then [DONE]. */
  protected complete(): void {
    if (this.doneSent) return
    this.upstreamCompleted = true
    if (this.request.clientWantsUsage && this.usage) {
      const chunk = { ...this.head(), choices: [], usage: openAiUsageOf(this.usage) }
      this.output += `data: ${JSON.stringify(chunk)}\n\n`
    }
    this.doneSent = true
    this.output += DONE_EVENT
  }

  /** An error the provider sent inside its stream: passed on in OpenAI's shape. */
  protected fail(error: UpstreamError): void {
    this.streamError = error
    this.output += `data: ${toOpenAiErrorBody(error)}\n\n`
  }

  protected onKeepAlive(): void {
    if (this.doneSent) return
    this.keepAlives += 1
    this.output += ': keep-alive\n\n'
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private addText(text: string): void {
    this.completionTextLength += text.length
    if (this.completionText.length < TEXT_CAP) {
      this.completionText += text.slice(0, TEXT_CAP - this.completionText.length)
    }
  }

  private head(): Json {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.request.receivedAt ?? 0,
      model: this.model,
    }
  }

  private emit(delta: Json, finish: string | null): void {
    // OpenAI's first chunk carries the role.
    const withRole = this.opened ? delta : { role: 'assistant', ...delta }
    this.opened = true
    const chunk = {
      ...this.head(),
      choices: [{ index: 0, delta: withRole, logprobs: null, finish_reason: finish }],
    }
    this.output += `data: ${JSON.stringify(chunk)}\n\n`
  }
}
