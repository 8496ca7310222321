/**
 * Cohere's v2 chat event stream as an OpenAI chat completion stream.
 * https://docs.cohere.com/docs/streaming
 * message-start (the answer's id), content-delta (text), tool-plan-delta (the model's plan, passed
 * on as reasoning), tool-call-start / tool-call-delta / tool-call-end (one function call each),
 * message-end (finish reason and usage), after which the stream ends.
 */

import { isRecord, type Json } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { SseChatStream } from '../shared/sse-chat-stream.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'
import { cohereUsage, finishReason } from './response.ts'

/** `delta.message` of an event, where Cohere puts what it adds. */
const messageOf = (event: Json): Json =>
  isRecord(event.delta) && isRecord(event.delta.message) ? event.delta.message : {}

export class CohereToOpenAiStream extends SseChatStream {
  /** Cohere's tool call index -> OpenAI's. */
  private readonly tools = new Map<number, number>()

  protected onData(event: Json, sse: SseEvent): void {
    const type = typeof event.type === 'string' ? event.type : sse.event
    const message = messageOf(event)
    const index = typeof event.index === 'number' ? event.index : 0
    const content = isRecord(message.content) ? message.content : {}
    const call = isRecord(message.tool_calls) ? message.tool_calls : {}
    const fn = isRecord(call.function) ? call.function : {}
    switch (type) {
      case 'message-start':
        if (typeof event.id === 'string') this.writer.id = event.id
        this.writer.open()
        break
      case 'content-delta':
        if (typeof content.text === 'string') this.writer.text('content', content.text)
        else if (typeof content.thinking === 'string') this.writer.text('reasoning_content', content.thinking)
        break
      case 'tool-plan-delta':
        if (typeof message.tool_plan === 'string') this.writer.text('reasoning_content', message.tool_plan)
        break
      case 'tool-call-start':
        this.tools.set(index, this.tools.size)
        this.writer.toolStart(
          this.tools.get(index)!,
          String(call.id ?? `call_${index}`),
          String(fn.name ?? ''),
        )
        if (typeof fn.arguments === 'string') this.writer.toolArguments(this.tools.get(index)!, fn.arguments)
        break
      case 'tool-call-delta':
        if (typeof fn.arguments === 'string')
          this.writer.toolArguments(this.tools.get(index) ?? 0, fn.arguments)
        break
      case 'message-end':
        this.onEnd(isRecord(event.delta) ? event.delta : {})
        break
      default:
        if (isRecord(event.error) || (type === undefined && typeof event.message === 'string'))
          this.writer.error(mapUpstreamError(200, sse.data))
    }
  }

  private onEnd(delta: Json): void {
    this.writer.usage = cohereUsage(delta.usage) ?? this.writer.usage
    if (delta.finish_reason === 'ERROR') {
      const message = typeof delta.error === 'string' ? delta.error : 'the generation failed upstream'
      this.writer.error(mapUpstreamError(502, JSON.stringify({ message })))
    }
    this.writer.finishReason(finishReason(delta.finish_reason))
    this.writer.end()
  }
}
