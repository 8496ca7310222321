/**
 * A Coze v3 event stream as OpenAI's: `conversation.message.delta` events of type answer are the
 * text, `conversation.chat.completed` the end with the usage (input_count, output_count),
 * `conversation.chat.failed` and `error` an error in the stream.
 */
import { ChatChunkStream } from '../shared/chat-chunk-stream.ts'
import type { SseEvent } from '../shared/sse.ts'
import { readCozeEvent } from './events.ts'
import { cozeError } from './response.ts'

export class CozeStream extends ChatChunkStream {
  protected onEvent(event: SseEvent): void {
    const read = readCozeEvent(event)
    if (read.kind === 'delta') {
      if (read.chatId) this.id = read.chatId
      this.text(read.text)
    } else if (read.kind === 'completed') {
      this.setUsage(read.usage)
      this.finishReason('stop')
      this.complete()
    } else if (read.kind === 'failed') this.fail(cozeError(read.code, read.message, { headers: {} }))
    else if (read.kind === 'done') this.complete()
  }
}
