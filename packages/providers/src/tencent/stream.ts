/**
 * A Hunyuan stream as OpenAI's: each event is `{"Choices":[{"Delta":{...},"FinishReason":""}],
 * "Usage":{...}}` with the usage so far; the event whose FinishReason is set ends the answer
 * (Hunyuan sends no `[DONE]`). An error arrives as `{"Response":{"Error":...}}`.
 * https://cloud.tencent.com/document/api/1729/105701
 */
import { ChatChunkStream } from '../shared/chat-chunk-stream.ts'
import { isRecord } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { hunyuanError, hunyuanFinishReason, hunyuanUsage } from './response.ts'

export class HunyuanStream extends ChatChunkStream {
  protected onEvent(event: SseEvent): void {
    if (event.data === '[DONE]') {
      this.complete()
      return
    }
    let json: unknown
    try {
      json = JSON.parse(event.data)
    } catch {
      return // not an event of the API
    }
    if (!isRecord(json)) return
    const error = isRecord(json.Response) ? json.Response.Error : json.Error
    if (isRecord(error)) {
      this.fail(hunyuanError(error, { status: 200, headers: {}, body: Buffer.from(event.data) }))
      return
    }
    if (typeof json.Id === 'string') this.id = json.Id
    this.setUsage(hunyuanUsage(json.Usage))
    const choice = Array.isArray(json.Choices) && isRecord(json.Choices[0]) ? json.Choices[0] : {}
    const delta = isRecord(choice.Delta) ? choice.Delta : {}
    if (typeof delta.ReasoningContent === 'string') this.text(delta.ReasoningContent, 'reasoning_content')
    if (typeof delta.Content === 'string') this.text(delta.Content)
    if (Array.isArray(delta.ToolCalls)) {
      for (const [position, call] of delta.ToolCalls.entries()) {
        if (!isRecord(call)) continue
        const fn = isRecord(call.Function) ? call.Function : {}
        this.toolCall({
          index: typeof call.Index === 'number' ? call.Index : position,
          id: typeof call.Id === 'string' ? call.Id : undefined,
          name: typeof fn.Name === 'string' ? fn.Name : undefined,
          arguments: typeof fn.Arguments === 'string' ? fn.Arguments : undefined,
        })
      }
    }
    const reason = hunyuanFinishReason(choice.FinishReason)
    if (reason) {
      this.finishReason(reason)
      this.complete()
    }
  }
}
