/**
 * A Baidu Qianfan v1 stream as OpenAI's: each `data:` event carries a `result` piece and the usage
 * so far; the event with `is_end: true` ends the answer (Baidu sends no `[DONE]`). An error arrives
 * as `{"error_code","error_msg"}`.
 */
import { ChatChunkStream } from '../shared/chat-chunk-stream.ts'
import { isRecord } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { normaliseUsage } from '../shared/usage.ts'
import { baiduError, baiduFinishReason } from './response.ts'

export class BaiduStream extends ChatChunkStream {
  protected onEvent(event: SseEvent): void {
    let json: unknown
    try {
      json = JSON.parse(event.data)
    } catch {
      return // not an event of the API
    }
    if (!isRecord(json)) return
    if (json.error_code !== undefined && json.error_code !== 0) {
      this.fail(baiduError(json, { headers: {} }))
      return
    }
    if (typeof json.id === 'string') this.id = json.id
    const usage = normaliseUsage(json.usage)
    if (usage && usage.totalTokens > 0) this.setUsage(usage)
    if (typeof json.result === 'string') this.text(json.result)
    if (json.is_end === true) {
      this.finishReason(
        json.need_clear_history === true
          ? 'content_filter'
          : (baiduFinishReason(json.finish_reason) ?? 'stop'),
      )
      this.complete()
    }
  }
}
