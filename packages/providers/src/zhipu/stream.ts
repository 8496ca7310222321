/**
 * A Zhipu chat stream as OpenAI's: Zhipu's chunks lack `object`, may say `sensitive` as their
 * finish reason and carry the usage on the last chunk, which also has the last choice.
 * https://open.bigmodel.cn/dev/howuse/streaming
 */

import { isRecord, type Json } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { EndingSseChatStream } from '../shared/sse-chat-stream.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'
import { normaliseUsage } from '../shared/usage.ts'
import { zhipuFinishReason } from './response.ts'

export class ZhipuStream extends EndingSseChatStream {
  protected onData(json: Json, event: SseEvent): void {
    if (isRecord(json.error)) {
      this.writer.error(mapUpstreamError(200, event.data))
      return
    }
    if (typeof json.id === 'string') this.writer.id = json.id
    if (typeof json.model === 'string') this.writer.model = json.model
    this.writer.usage = normaliseUsage(json.usage) ?? this.writer.usage
    const choice = Array.isArray(json.choices) && isRecord(json.choices[0]) ? json.choices[0] : {}
    const delta = isRecord(choice.delta) ? choice.delta : {}
    if (typeof delta.reasoning_content === 'string')
      this.writer.text('reasoning_content', delta.reasoning_content)
    if (typeof delta.content === 'string') this.writer.text('content', delta.content)
    if (Array.isArray(delta.tool_calls)) this.openAiToolCallPieces(delta.tool_calls)
    const reason = zhipuFinishReason(choice.finish_reason)
    if (reason) this.writer.finishReason(reason)
  }
}
