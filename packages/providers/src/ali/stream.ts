/**
 * DashScope's event stream (`X-DashScope-SSE: enable`, `incremental_output: true`) as an OpenAI
 * chat completion stream. Each `result` event carries the new text (or tool call pieces) and the
 * usage so far; the one whose finish_reason is not "null" ends the answer. An `error` event
 * carries DashScope's error body. Its `:HTTP_STATUS/200` lines are comments, not keep-alives.
 * https://help.aliyun.com/zh/model-studio/developer-reference/use-qwen-by-calling-api
 */
import type { RelayRequest } from '../adaptor.ts'
import { openAiTokenCounts } from '../shared/chat-completion.ts'
import { isRecord, type Json } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { SseChatStream } from '../shared/sse-chat-stream.ts'
import { aliError, aliUsage, contentText, finishReason, INSPECTION_FAILED } from './response.ts'

export class DashScopeToOpenAiStream extends SseChatStream {
  constructor(request: RelayRequest) {
    super(request, openAiTokenCounts, false)
    this.writer.id = 'chatcmpl-dashscope'
  }

  protected onData(data: Json, event: SseEvent): void {
    if (this.writer.ended) return
    if (event.event === 'error' || (typeof data.code === 'string' && data.code !== '')) {
      this.onError(data)
      return
    }
    if (typeof data.request_id === 'string') this.writer.id = data.request_id
    this.writer.usage = aliUsage(data.usage) ?? this.writer.usage
    const output = isRecord(data.output) ? data.output : {}
    const choice = Array.isArray(output.choices) && isRecord(output.choices[0]) ? output.choices[0] : {}
    const message = isRecord(choice.message) ? choice.message : {}
    if (typeof message.reasoning_content === 'string')
      this.writer.text('reasoning_content', message.reasoning_content)
    this.writer.text('content', contentText(message.content))
    if (Array.isArray(message.tool_calls)) this.openAiToolCallPieces(message.tool_calls)
    const reason = finishReason(choice.finish_reason)
    if (reason) {
      this.writer.finishReason(reason)
      this.writer.end()
    }
  }

  /** DashScope sends no end marker: the end the relay deems complete ends the answer. */
  protected override onUpstreamEnd(): void {
    this.writer.end()
  }

  private onError(data: Json): void {
    // The inspection stopping the answer half-way: OpenAI's filtered end, not an error.
    if (data.code === INSPECTION_FAILED && this.writer.answered) {
      this.writer.finishReason('content_filter')
      this.writer.end()
      return
    }
    this.writer.error(aliError(400, JSON.stringify(data)))
  }
}
