/**
 * The reading side of a client-API bridge: it wraps the transformer of an OpenAI-format adaptor,
 * reads the OpenAI chat chunks that transformer writes and hands their parts to the client API's
 * writer (onChunk, onReasoning, onText, onToolCall, onError), then onEnd once, at the chat's
 * [DONE] or at the upstream's end when the relay deems the answer complete. The pipeline's counts
 * (usage, completion text, keep-alives, errors) are the wrapped transformer's.
 * https://platform.openai.com/docs/api-reference/chat-streaming
 */
import type { RelayRequest, StreamTransformer } from '../adaptor.ts'
import { isRecord, type Json } from './json.ts'
import { type SseEvent, SseParser } from './sse.ts'

export abstract class ChatStreamBridge implements StreamTransformer {
  /** The last finish_reason the chat sent. */
  protected finishReason: unknown
  private output = ''
  private ended = false
  private readonly parser = new SseParser(
    (sse) => this.onEvent(sse),
    (comment) => this.onComment(comment),
  )

  constructor(
    protected readonly inner: StreamTransformer,
    protected readonly request: RelayRequest,
  ) {}

  /** Any chunk, before its choice is read (the answer's id, model, first event). */
  protected abstract onChunk(chunk: Json): void
  protected abstract onReasoning(text: string): void
  protected abstract onText(text: string): void
  protected abstract onToolCall(call: Json): void
  /** An error chunk: its `error` object and the raw event data. */
  protected abstract onError(error: Json, data: string): void
  protected abstract onEnd(): void

  /** A comment line (keep-alive) of the chat stream: passed on as it came. */
  protected onComment(comment: string): void {
    this.write(`:${comment}\n\n`)
  }

  protected write(text: string): void {
    this.output += text
  }

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
    if (complete) this.end()
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private end(): void {
    if (this.ended) return
    this.ended = true
    this.onEnd()
  }

  private onEvent(sse: SseEvent): void {
    if (this.ended) return
    if (sse.data === '[DONE]') {
      this.end()
      return
    }
    let chunk: unknown
    try {
      chunk = JSON.parse(sse.data)
    } catch {
      return // not a chunk of the API
    }
    if (!isRecord(chunk)) return
    if (isRecord(chunk.error)) {
      this.onError(chunk.error, sse.data)
      return
    }
    this.onChunk(chunk)
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find(isRecord) : undefined
    if (!choice) return
    const delta = isRecord(choice.delta) ? choice.delta : {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') this.onReasoning(reasoning)
    if (typeof delta.content === 'string' && delta.content !== '') this.onText(delta.content)
    if (Array.isArray(delta.tool_calls))
      for (const call of delta.tool_calls) if (isRecord(call)) this.onToolCall(call)
    if (choice.finish_reason != null) this.finishReason = choice.finish_reason
  }
}
