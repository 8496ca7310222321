/**
 * Spark answer frames (one per line, as the pipeline's WebSocket transport hands them on) as an
 * OpenAI chat completion stream: each frame's text a content chunk, each function call a tool call
 * chunk; the last frame (status 2) the finish, the usage and `[DONE]`; an error frame the stream's
 * error.
 */
import type { RelayRequest } from '../adaptor.ts'
import { ChatChunkWriter, ChatWriterStream } from '../shared/chat-chunks.ts'
import { openAiTokenCounts } from '../shared/chat-completion.ts'
import { NdjsonParser } from '../shared/ndjson.ts'
import { readFrame } from './frames.ts'
import { toolCallId } from './functions.ts'

export class SparkToOpenAiStream extends ChatWriterStream {
  private readonly parser = new NdjsonParser((line) => this.onLine(line))
  /** Tool calls sent so far: their index in the answer. */
  private toolCalls = 0

  constructor(request: RelayRequest) {
    super(new ChatChunkWriter(request, openAiTokenCounts))
    this.writer.id = 'chatcmpl-spark'
  }

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.writer.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete) this.writer.close()
    return this.writer.take()
  }

  private onLine(line: string): void {
    if (this.writer.ended) return
    const frame = readFrame(line)
    if (!frame) return
    if (frame.error) {
      this.writer.error(frame.error)
      return
    }
    if (frame.sid) this.writer.id = frame.sid
    if (frame.usage) this.writer.usage = frame.usage
    this.writer.text('content', frame.content)
    // Spark sends a function call whole, in one frame.
    for (const call of frame.functionCalls) {
      const index = this.toolCalls++
      this.writer.toolCall(index, toolCallId(this.writer.id, index), call.name, call.arguments)
    }
    if (frame.status === 2) {
      this.writer.finishReason(this.toolCalls > 0 ? 'tool_calls' : 'stop')
      this.writer.end()
    }
  }
}
