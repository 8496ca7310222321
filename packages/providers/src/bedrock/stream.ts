/**
 * A Bedrock ConverseStream answer (AWS event stream framing, event-stream.ts) as an OpenAI chat
 * completion stream.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 * messageStart opens the answer; contentBlockStart opens a tool call; contentBlockDelta carries
 * text, reasoning or a tool call's input; messageStop the stop reason; metadata, the last event,
 * the usage (then the usage chunk, if the client asked, and [DONE]). An exception message is an
 * error event for the client and the stream's error for the relay.
 */
import type { RelayRequest } from '../adaptor.ts'
import { ChatChunkWriter, ChatWriterStream } from '../shared/chat-chunks.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { localError } from '../shared/upstream-error.ts'
import { bedrockError } from './errors.ts'
import { EventStreamDecoder, type EventStreamMessage } from './event-stream.ts'
import { bedrockUsage, finishReason, openAiUsage } from './response.ts'

export class BedrockToOpenAiStream extends ChatWriterStream {
  private readonly decoder = new EventStreamDecoder()
  /** Content block index -> OpenAI tool call index. */
  private readonly toolIndexes = new Map<number, number>()
  private broken = false

  constructor(request: RelayRequest) {
    super(new ChatChunkWriter(request, openAiUsage))
    this.writer.id = `chatcmpl-bedrock-${request.receivedAt ?? 0}`
  }

  push(chunk: Buffer): string {
    if (this.writer.ended || this.broken) return ''
    let messages: EventStreamMessage[]
    try {
      messages = this.decoder.push(chunk)
    } catch {
      this.broken = true
      this.writer.error(
        localError(502, 'invalid_upstream_stream', 'the upstream event stream is corrupt', {
          retryable: true,
        }),
      )
      return this.writer.take()
    }
    for (const message of messages) this.onMessage(message)
    return this.writer.take()
  }

  finish(complete = true): string {
    if (complete) this.writer.close()
    return this.writer.take()
  }

  private onMessage(message: EventStreamMessage): void {
    if (this.writer.ended) return
    const kind = message.headers[':message-type']
    if (kind === 'exception') {
      this.writer.error(bedrockError(message.headers[':exception-type'], 200, message.payload))
      return
    }
    if (kind === 'error') {
      const code = message.headers[':error-code']
      this.writer.error(
        bedrockError(code, 500, JSON.stringify({ message: message.headers[':error-message'] ?? code })),
      )
      return
    }
    let data: unknown
    try {
      data = JSON.parse(message.payload.toString('utf8'))
    } catch {
      return
    }
    if (!isRecord(data)) return
    const handlers: Record<string, () => void> = {
      messageStart: () => this.writer.open(),
      contentBlockStart: () => this.onBlockStart(data),
      contentBlockDelta: () => this.onBlockDelta(data),
      messageStop: () => this.writer.finishReason(finishReason(data.stopReason) ?? 'stop'),
      metadata: () => {
        this.writer.usage = bedrockUsage(data.usage) ?? this.writer.usage
        this.writer.end()
      },
    }
    handlers[message.headers[':event-type'] ?? '']?.()
  }

  private onBlockStart(data: Json): void {
    const start = isRecord(data.start) ? data.start : {}
    if (!isRecord(start.toolUse)) return
    const toolIndex = this.toolIndexes.size
    this.toolIndexes.set(Number(data.contentBlockIndex), toolIndex)
    const use = start.toolUse
    this.writer.toolStart(toolIndex, String(use.toolUseId ?? ''), String(use.name ?? ''))
  }

  private onBlockDelta(data: Json): void {
    const delta = isRecord(data.delta) ? data.delta : {}
    if (typeof delta.text === 'string') this.writer.text('content', delta.text)
    else if (isRecord(delta.reasoningContent) && typeof delta.reasoningContent.text === 'string') {
      this.writer.text('reasoning_content', delta.reasoningContent.text)
    } else if (isRecord(delta.toolUse) && typeof delta.toolUse.input === 'string') {
      const index = this.toolIndexes.get(Number(data.contentBlockIndex)) ?? 0
      this.writer.toolArguments(index, delta.toolUse.input)
    }
  }
}
