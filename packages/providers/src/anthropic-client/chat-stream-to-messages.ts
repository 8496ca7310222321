/**
 * An OpenAI chat stream (what an OpenAI-format adaptor's transformer writes) as Anthropic Messages
 * events, for a `/v1/messages` client served by such a channel.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 * message_start, then per content kind (text, thinking, each tool call) a block opened, its deltas
 * and its stop, then message_delta (stop reason, usage) and message_stop at the chat's [DONE].
 */
import { ChatStreamBridge } from '../shared/chat-stream-bridge.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { anthropicErrorType, messagesUsage, stopReason } from './from-chat-response.ts'

const event = (type: string, data: Json): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`

export class ChatStreamToMessages extends ChatStreamBridge {
  private started = false
  /** The open content block: its index and kind ('text', 'thinking' or the tool call's index). */
  private block: { index: number; kind: string } | undefined
  private blockCount = 0

  protected onError(error: Json): void {
    const status = this.inner.streamError?.status ?? 500
    const message = typeof error.message === 'string' ? error.message : 'upstream error'
    this.write(event('error', { error: { type: anthropicErrorType(status), message } }))
  }

  protected onChunk(chunk: Json): void {
    this.start(chunk)
  }

  protected onReasoning(text: string): void {
    this.delta('thinking', { type: 'thinking_delta', thinking: text })
  }

  protected onText(text: string): void {
    this.delta('text', { type: 'text_delta', text })
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
    this.write(event('message_start', { message }))
  }

  /** Opens a block of `kind` (closing the one before) unless it is the open one. */
  private open(kind: string, contentBlock: Json): number {
    if (this.block?.kind === kind) return this.block.index
    this.close()
    const index = this.blockCount++
    this.block = { index, kind }
    this.write(event('content_block_start', { index, content_block: contentBlock }))
    return index
  }

  private close(): void {
    if (!this.block) return
    this.write(event('content_block_stop', { index: this.block.index }))
    this.block = undefined
  }

  private delta(kind: 'text' | 'thinking', delta: Json): void {
    const index = this.open(
      kind,
      kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' },
    )
    this.write(event('content_block_delta', { index, delta }))
  }

  protected onToolCall(call: Json): void {
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
      this.write(
        event('content_block_delta', {
          index: this.block!.index,
          delta: { type: 'input_json_delta', partial_json: fn.arguments },
        }),
      )
    }
  }

  /** The end of the answer: the open block closed, the stop reason and usage, message_stop. */
  protected onEnd(): void {
    if (!this.started) this.start({})
    this.close()
    this.write(
      event('message_delta', {
        delta: { stop_reason: stopReason(this.finishReason), stop_sequence: null },
        usage: messagesUsage(this.inner.usage),
      }),
    )
    this.write(event('message_stop', {}))
  }
}
