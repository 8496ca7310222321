/**
 * A Coze v3 event stream as OpenAI's: `conversation.message.delta` events of type answer are the
 * text, `conversation.chat.completed` the end with the usage (input_count, output_count),
 * `conversation.chat.failed` and `error` an error in the stream.
 */

import type { SseEvent } from '../shared/sse.ts'
import { EndingSseChatStream } from '../shared/sse-chat-stream.ts'
import { readCozeEvent } from './events.ts'
import { cozeError } from './response.ts'

export class CozeStream extends EndingSseChatStream {
  // Coze's events are told apart by name, and its `done` event's data is not JSON: all are read here.
  protected override onEvent(event: SseEvent): void {
    if (this.writer.ended) return
    const read = readCozeEvent(event)
    if (read.kind === 'delta') {
      if (read.chatId) this.writer.id = read.chatId
      this.writer.text('content', read.text)
    } else if (read.kind === 'completed') {
      this.writer.usage = read.usage ?? this.writer.usage
      this.writer.finishReason('stop')
      this.writer.end()
    } else if (read.kind === 'failed') this.writer.error(cozeError(read.code, read.message, { headers: {} }))
    else if (read.kind === 'done') this.writer.end()
  }

  protected onData(): void {}
}
