/**
 * An Anthropic Messages event stream as an OpenAI chat completion stream.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming
 * message_start opens the answer (its id, model and prompt usage); each content block's deltas
 * become content, tool call or reasoning_content chunks; message_delta carries the stop reason and
 * the output usage; message_stop ends it (then the usage chunk, if the client asked, and [DONE]).
 */
import type { RelayRequest } from '../adaptor.ts'
import { isRecord, type Json } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { SseChatStream } from '../shared/sse-chat-stream.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'
import { anthropicUsage, finishReason, openAiUsage } from './response.ts'

export class AnthropicToOpenAiStream extends SseChatStream {
  private rawUsage: Json = {}
  /** Content block index -> OpenAI tool call index. */
  private readonly toolIndexes = new Map<number, number>()

  constructor(request: RelayRequest) {
    super(request, openAiUsage)
    this.writer.id = 'msg'
  }

  /**
   * Events whose name says all there is to them (three of a short answer's eleven) are taken
   * without parsing their data: Anthropic names every event after its data's `type`.
   */
  protected override onEvent(event: SseEvent): void {
    switch (event.event) {
      case 'ping':
        if (!this.writer.ended) this.writer.keepAlive()
        return
      case 'content_block_stop':
        return
      case 'message_stop':
        if (!this.writer.ended) this.writer.end()
        return
    }
    super.onEvent(event)
  }

  protected onData(data: Json, event: SseEvent): void {
    if (this.writer.ended) return
    // A switch, not a table of handlers: this runs for every event of every stream.
    switch (data.type ?? event.event) {
      case 'message_start':
        this.onMessageStart(data.message)
        break
      case 'content_block_start':
        this.onBlockStart(data)
        break
      case 'content_block_delta':
        this.onBlockDelta(data)
        break
      case 'message_delta':
        this.onMessageDelta(data)
        break
      case 'message_stop':
        this.writer.end()
        break
      case 'ping':
        this.writer.keepAlive()
        break
      case 'error':
        this.writer.error(mapUpstreamError(200, event.data))
        break
    }
  }

  private onMessageStart(message: unknown): void {
    if (!isRecord(message)) return
    if (typeof message.id === 'string') this.writer.id = message.id
    if (typeof message.model === 'string') this.writer.model = message.model
    this.addUsage(message.usage)
    this.writer.open()
  }

  private onBlockStart(data: Json): void {
    const block = data.content_block
    if (!isRecord(block)) return
    if (block.type === 'text' && typeof block.text === 'string') {
      this.writer.text('content', block.text)
    } else if (block.type === 'tool_use') {
      const toolIndex = this.toolIndexes.size
      this.toolIndexes.set(Number(data.index), toolIndex)
      this.writer.toolStart(toolIndex, String(block.id ?? ''), String(block.name ?? ''))
    }
  }

  private onBlockDelta(data: Json): void {
    const delta = data.delta
    if (!isRecord(delta)) return
    if (delta.type === 'text_delta' && typeof delta.text === 'string') this.writer.text('content', delta.text)
    else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
      this.writer.text('reasoning_content', delta.thinking)
    } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      this.writer.toolArguments(this.toolIndexes.get(Number(data.index)) ?? 0, delta.partial_json)
    }
  }

  private onMessageDelta(data: Json): void {
    this.addUsage(data.usage)
    const delta = isRecord(data.delta) ? data.delta : {}
    const reason = finishReason(delta.stop_reason)
    if (reason) this.writer.finishReason(reason)
  }

  /** message_start's usage, then message_delta's counts over it (output_tokens is cumulative). */
  private addUsage(raw: unknown): void {
    if (!isRecord(raw)) return
    for (const [key, value] of Object.entries(raw)) if (value !== null) this.rawUsage[key] = value
    this.writer.usage = anthropicUsage(this.rawUsage)
  }
}
