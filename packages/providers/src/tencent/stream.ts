/**
 * A Hunyuan stream as OpenAI's: each event is `{"Choices":[{"Delta":{...},"FinishReason":""}],
 * "Usage":{...}}` with the usage so far; the event whose FinishReason is set ends the answer
 * (Hunyuan sends no `[DONE]`). An error arrives as `{"Response":{"Error":...}}`.
 * https://cloud.tencent.com/document/api/1729/105701
 */

import { isRecord, type Json } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { EndingSseChatStream } from '../shared/sse-chat-stream.ts'
import { hunyuanError, hunyuanFinishReason, hunyuanUsage } from './response.ts'

export class HunyuanStream extends EndingSseChatStream {
  protected onData(json: Json, event: SseEvent): void {
    const error = isRecord(json.Response) ? json.Response.Error : json.Error
    if (isRecord(error)) {
      this.writer.error(hunyuanError(error, { status: 200, headers: {}, body: Buffer.from(event.data) }))
      return
    }
    if (typeof json.Id === 'string') this.writer.id = json.Id
    this.writer.usage = hunyuanUsage(json.Usage) ?? this.writer.usage
    const choice = Array.isArray(json.Choices) && isRecord(json.Choices[0]) ? json.Choices[0] : {}
    const delta = isRecord(choice.Delta) ? choice.Delta : {}
    if (typeof delta.ReasoningContent === 'string')
      this.writer.text('reasoning_content', delta.ReasoningContent)
    if (typeof delta.Content === 'string') this.writer.text('content', delta.Content)
    if (Array.isArray(delta.ToolCalls)) {
      for (const [position, call] of delta.ToolCalls.entries()) {
        if (!isRecord(call)) continue
        const fn = isRecord(call.Function) ? call.Function : {}
        this.toolCallPiece({
          index: typeof call.Index === 'number' ? call.Index : position,
          id: typeof call.Id === 'string' ? call.Id : undefined,
          name: typeof fn.Name === 'string' ? fn.Name : undefined,
          arguments: typeof fn.Arguments === 'string' ? fn.Arguments : undefined,
        })
      }
    }
    const reason = hunyuanFinishReason(choice.FinishReason)
    if (reason) {
      this.writer.finishReason(reason)
      this.writer.end()
    }
  }
}
