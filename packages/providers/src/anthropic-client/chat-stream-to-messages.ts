/**
 * An OpenAI chat stream (what an OpenAI-format adaptor's transformer writes) as Anthropic Messages
 * events, for a `/v1/messages` client served by such a channel.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 * message_start, then per content kind (text, thinking, each tool call) a block opened, its deltas
 * and its stop, then message_delta (stop reason, usage) and message_stop at the chat's [DONE].
 */
import type { RelayRequest, StreamTransformer } from '../adaptor.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { anthropicErrorType, messagesUsage, stopReason } from './from-chat-response.ts'

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const event = (type: string, data: Json): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

export class ChatStreamToMessages implements StreamTransformer {
  private output = ''
  private readonly parser = new SseParser(
    (sse) => this.onEvent(sse),
    (comment) => {
      this.output += `:${comment}\n\n`
    },
  )
  private started = false
  private stopped = false
  /** The open content block: its index and kind ('text', 'thinking' or the tool call's index). */
  private block: { index: number; kind: string } | undefined
  private blockCount = 0
  private finishReason: unknown

  constructor(
    private readonly inner: StreamTransformer,
    private readonly request: RelayRequest,
  ) {}

  get usage() {
    return this.inner.usage
  }
  get completionText() {
    return this.inner.completionText
  }
  get completionTextLength() {
    return this.inner.completionTextLength
  }
  get upstreamCompleted() {
    return this.inner.upstreamCompleted
  }
  get answered() {
    return this.inner.answered
  }
  get keepAlives() {
    return this.inner.keepAlives
  }
  get streamError() {
    return this.inner.streamError
  }

  push(chunk: Buffer): string {
    const chat = this.inner.push(chunk)
    if (chat.length > 0) this.parser.push(typeof chat === 'string' ? Buffer.from(chat) : chat)
    return this.take()
  }

  finish(complete = true): string {
    const chat = this.inner.finish(complete)
    if (chat.length > 0) this.parser.push(Buffer.from(chat))
    this.parser.end()
    if (complete) this.stop()
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onEvent(sse: SseEvent): void {
    if (this.stopped) return
    if (sse.data === '[DONE]') {
      this.stop()
      return
    }
    let chunk: unknown
    try {
      chunk = JSON.parse(sse.data)
    } catch {
      return
    }
    if (!isRecord(chunk)) return
    if (isRecord(chunk.error)) {
      const status = this.inner.streamError?.status ?? 500
      const message = typeof chunk.error.message === 'string' ? chunk.error.message : 'upstream error'
      this.output += event('error', { error: { type: anthropicErrorType(status), message } })
      return
    }
    this.start(chunk)
    const choice = Array.isArray(chunk.choices) && isRecord(chunk.choices[0]) ? chunk.choices[0] : undefined
    if (!choice) return
    const delta = isRecord(choice.delta) ? choice.delta : {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '')
      this.delta('thinking', { type: 'thinking_delta', thinking: reasoning })
    if (typeof delta.content === 'string' && delta.content !== '')
      this.delta('text', { type: 'text_delta', text: delta.content })
    if (Array.isArray(delta.tool_calls))
      for (const call of delta.tool_calls) if (isRecord(call)) this.toolDelta(call)
    if (choice.finish_reason != null) this.finishReason = choice.finish_reason
  }

  private start(chunk: Json): void {
    if (this.started) return
    this.started = true
    const id = typeof chunk.id === 'string' ? chunk.id : 'chatcmpl'
    const message = {
      id: id.startsWith('msg_') ? id : `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model: typeof chunk.model === 'string' ? chunk.model : this.request.mappedModel,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    }
    this.output += event('message_start', { message })
  }

  /** Opens a block of `kind` (closing the one before) unless it is the open one. */
  private open(kind: string, contentBlock: Json): number {
    if (this.block?.kind === kind) return this.block.index
    this.close()
    const index = this.blockCount++
    this.block = { index, kind }
    this.output += event('content_block_start', { index, content_block: contentBlock })
    return index
  }

  private close(): void {
    if (!this.block) return
    this.output += event('content_block_stop', { index: this.block.index })
    this.block = undefined
  }

  private delta(kind: 'text' | 'thinking', delta: Json): void {
    const index = this.open(
      kind,
      kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' },
    )
    this.output += event('content_block_delta', { index, delta })
  }

  private toolDelta(call: Json): void {
    const kind = `tool:${call.index ?? 0}`
    const fn = isRecord(call.function) ? call.function : {}
    if (this.block?.kind !== kind) {
      this.open(kind, {
        type: 'tool_use',
        id: call.id ?? `toolu_${this.blockCount}`,
        name: fn.name ?? '',
        input: {},
      })
    }
    if (typeof fn.arguments === 'string' && fn.arguments !== '') {
      this.output += event('content_block_delta', {
        index: this.block!.index,
        delta: { type: 'input_json_delta', partial_json: fn.arguments },
      })
    }
  }

  /** The end of the answer: the open block closed, the stop reason and usage, message_stop. */
  private stop(): void {
    if (this.stopped) return
    this.stopped = true
    if (!this.started) this.start({})
    this.close()
    this.output += event('message_delta', {
      delta: { stop_reason: stopReason(this.finishReason), stop_sequence: null },
      usage: messagesUsage(this.inner.usage),
    })
    this.output += event('message_stop', {})
  }
}
