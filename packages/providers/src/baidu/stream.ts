/**
 * A Baidu Qianfan v1 stream as OpenAI's: each `data:` event carries a `result` piece and the usage
 * so far; the event with `is_end: true` ends the answer (Baidu sends no `[DONE]`). An error arrives
 * as `{"error_code","error_msg"}`.
 */

import type { Json } from '../shared/json.ts'
import { EndingSseChatStream } from '../shared/sse-chat-stream.ts'
import { normaliseUsage } from '../shared/usage.ts'
import { baiduError, baiduFinishReason } from './response.ts'

export class BaiduStream extends EndingSseChatStream {
  protected onData(json: Json): void {
    if (json.error_code !== undefined && json.error_code !== 0) {
      this.writer.error(baiduError(json, { headers: {} }))
      return
    }
    if (typeof json.id === 'string') this.writer.id = json.id
    const usage = normaliseUsage(json.usage)
    if (usage && usage.totalTokens > 0) this.writer.usage = usage
    if (typeof json.result === 'string') this.writer.text('content', json.result)
    if (json.is_end === true) {
      this.writer.finishReason(
        json.need_clear_history === true
          ? 'content_filter'
          : (baiduFinishReason(json.finish_reason) ?? 'stop'),
      )
      this.writer.end()
    }
  }
}
