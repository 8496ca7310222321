/**
 * Ollama's chat stream (newline-delimited JSON, not SSE) as an OpenAI chat completion stream.
 * https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 * Each line carries a piece of `message.content` (or `thinking`, or whole `tool_calls`); the line
 * with `done: true` carries done_reason and the counts; a line `{"error": ...}` is a failure.
 */
import type { RelayRequest } from '../adaptor.ts'
import { ChatChunkWriter, ChatWriterStream } from '../shared/chat-chunks.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { NdjsonParser } from '../shared/ndjson.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'
import { finishReason, ollamaUsage, openAiToolCalls } from './response.ts'

export class OllamaToOpenAiStream extends ChatWriterStream {
  private readonly parser = new NdjsonParser((line) => this.onLine(line))
  private toolCount = 0

  constructor(request: RelayRequest) {
    super(new ChatChunkWriter(request))
    this.writer.id = 'chatcmpl-ollama'
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
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch {
      return
    }
    if (!isRecord(json) || this.writer.ended) return
    if (typeof json.error === 'string') {
      this.writer.error(mapUpstreamError(200, line))
      return
    }
    if (typeof json.model === 'string') this.writer.model = json.model
    const message = isRecord(json.message) ? json.message : {}
    this.writer.open()
    if (typeof message.thinking === 'string') this.writer.text('reasoning_content', message.thinking)
    if (typeof message.content === 'string') this.writer.text('content', message.content)
    for (const call of openAiToolCalls(message.tool_calls, this.toolCount)) {
      const fn = call.function as Json
      this.writer.toolStart(this.toolCount, String(call.id), String(fn.name ?? ''))
      this.writer.toolArguments(this.toolCount, String(fn.arguments))
      this.toolCount += 1
    }
    if (json.done === true) {
      this.writer.usage = ollamaUsage(json)
      this.writer.finishReason(finishReason(json.done_reason, this.toolCount > 0))
      this.writer.end()
    }
  }
}
