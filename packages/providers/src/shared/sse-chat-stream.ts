/**
 * The frame of a stream transformer whose upstream sends server-sent events: it parses the events,
 * turns the upstream's comment lines into keep-alives (unless its comments are something else),
 * passes each event's JSON object to onData (data that is not a JSON object is not an event of the
 * API and is skipped; a subclass that reads other data overrides onEvent), and leaves the OpenAI
 * chunks, the usage chunk and the one [DONE] to its ChatChunkWriter.
 */
import type { RelayRequest } from '../adaptor.ts'
import { ChatChunkWriter, ChatWriterStream } from './chat-chunks.ts'
import { openAiTokenCounts } from './chat-completion.ts'
import { isRecord, type Json, parseJsonObject } from './json.ts'
import { type SseEvent, SseParser } from './sse.ts'
import type { Usage } from './usage.ts'

/** A tool call piece as OpenAI-like upstreams stream it: the id and name first, then arguments. */
export interface StreamedToolCall {
  readonly index: number
  readonly id?: string
  readonly name?: string
  readonly arguments?: string
}

export abstract class SseChatStream extends ChatWriterStream {
  private readonly parser: SseParser

  /**
   * `usageOf` writes the usage chunk's object (a provider may add its own counts to OpenAI's);
   * `keepAlives` false: the upstream's comment lines are something else, and dropped.
   */
  constructor(request: RelayRequest, usageOf?: (usage: Usage) => Json, keepAlives = true) {
    super(new ChatChunkWriter(request, usageOf))
    this.parser = new SseParser(
      (event) => this.onEvent(event),
      keepAlives ? () => this.writer.keepAlive() : undefined,
    )
  }

  /** One event's JSON object (and the event itself, for its name and raw data). */
  protected abstract onData(data: Json, event: SseEvent): void

  /** One event of the upstream's stream; by default its data read as a JSON object for onData. */
  protected onEvent(event: SseEvent): void {
    const data = parseJsonObject(event.data)
    if (data) this.onData(data, event)
  }

  /** The upstream's end without its end marker, when the relay deems the answer complete. */
  protected onUpstreamEnd(): void {
    this.writer.close()
  }

  /** A streamed tool call piece: its opening (with what came of its arguments) or more arguments. */
  protected toolCallPiece(call: StreamedToolCall): void {
    const args = call.arguments ?? ''
    if (call.id === undefined && call.name === undefined) this.writer.toolArguments(call.index, args)
    else if (args === '') this.writer.toolStart(call.index, call.id ?? '', call.name ?? '')
    else this.writer.toolCall(call.index, call.id ?? '', call.name ?? '', args)
  }

  /** Tool call pieces in OpenAI's shape (`index`, `id`, `function.name`, `function.arguments`). */
  protected openAiToolCallPieces(calls: readonly unknown[]): void {
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)
    for (const [position, call] of calls.entries()) {
      if (!isRecord(call)) continue
      const fn = isRecord(call.function) ? call.function : {}
      this.toolCallPiece({
        index: typeof call.index === 'number' ? call.index : position,
        id: text(call.id),
        name: text(fn.name),
        arguments: typeof fn.arguments === 'string' ? fn.arguments : undefined,
      })
    }
  }

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.writer.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete) this.onUpstreamEnd()
    return this.writer.take()
  }
}

/**
 * For upstreams whose stream ends the answer: `[DONE]` data (where they send it) and the end the
 * relay deems complete both end it, with the usage chunk (three counts) the client asked for, and
 * what comes after is not read. The chunks' id is `chatcmpl-<time>` until the upstream names its own.
 */
export abstract class EndingSseChatStream extends SseChatStream {
  constructor(request: RelayRequest) {
    super(request, openAiTokenCounts)
    this.writer.id = `chatcmpl-${request.receivedAt ?? 0}`
  }

  protected override onEvent(event: SseEvent): void {
    if (this.writer.ended) return
    if (event.data === '[DONE]') this.writer.end()
    else super.onEvent(event)
  }

  protected override onUpstreamEnd(): void {
    this.writer.end()
  }
}
