/**
 * A Bedrock ConverseStream answer (AWS event stream framing, event-stream.ts) as an OpenAI chat
 * completion stream.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 * messageStart opens the answer; contentBlockStart opens a tool call; contentBlockDelta carries
 * text, reasoning or a tool call's input; messageStop the stop reason; metadata, the last event,
 * the usage (then the usage chunk, if the client asked, and [DONE]). An exception message is an
 * error event for the client and the stream's error for the relay.
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { DONE_EVENT } from '../shared/openai-stream.ts'
import { localError, toOpenAiErrorBody } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { bedrockError } from './errors.ts'
import { EventStreamDecoder, type EventStreamMessage } from './event-stream.ts'
import { bedrockUsage, finishReason, openAiUsage } from './response.ts'

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
const TEXT_CAP = 1 << 20

export class BedrockToOpenAiStream implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  keepAlives = 0
  streamError: UpstreamError | undefined
  private output = ''
  private readonly decoder = new EventStreamDecoder()
  private readonly id: string
  /** Content block index -> OpenAI tool call index. */
  private readonly toolIndexes = new Map<number, number>()
  private doneSent = false
  private broken = false

  constructor(private readonly request: RelayRequest) {
    this.id = `chatcmpl-bedrock-${request.receivedAt ?? 0}`
  }

  push(chunk: Buffer): string {
    if (this.doneSent || this.broken) return ''
    let messages: EventStreamMessage[]
    try {
      messages = this.decoder.push(chunk)
    } catch {
      this.broken = true
      this.fail(
        localError(502, 'invalid_upstream_stream', 'the upstream event stream is corrupt', {
          retryable: true,
        }),
      )
      return this.take()
    }
    for (const message of messages) this.onMessage(message)
    return this.take()
  }

  finish(complete = true): string {
    if (complete && !this.doneSent) {
      this.doneSent = true
      this.output += DONE_EVENT
    }
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onMessage(message: EventStreamMessage): void {
    if (this.doneSent) return
    const kind = message.headers[':message-type']
    if (kind === 'exception') {
      this.fail(bedrockError(message.headers[':exception-type'], 200, message.payload))
      return
    }
    if (kind === 'error') {
      const code = message.headers[':error-code']
      this.fail(
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
      messageStart: () => this.emit({ role: 'assistant', content: '' }, null),
      contentBlockStart: () => this.onBlockStart(data),
      contentBlockDelta: () => this.onBlockDelta(data),
      messageStop: () => this.onMessageStop(data),
      metadata: () => this.onMetadata(data),
    }
    handlers[message.headers[':event-type'] ?? '']?.()
  }

  private onBlockStart(data: Json): void {
    const start = isRecord(data.start) ? data.start : {}
    if (!isRecord(start.toolUse)) return
    const toolIndex = this.toolIndexes.size
    this.toolIndexes.set(Number(data.contentBlockIndex), toolIndex)
    const name = String(start.toolUse.name ?? '')
    this.addText(name)
    this.answered = true
    const call = {
      index: toolIndex,
      id: start.toolUse.toolUseId,
      type: 'function',
      function: { name, arguments: '' },
    }
    this.emit({ tool_calls: [call] }, null)
  }

  private onBlockDelta(data: Json): void {
    const delta = isRecord(data.delta) ? data.delta : {}
    if (typeof delta.text === 'string') this.emitText('content', delta.text)
    else if (isRecord(delta.reasoningContent) && typeof delta.reasoningContent.text === 'string') {
      this.emitText('reasoning_content', delta.reasoningContent.text)
    } else if (isRecord(delta.toolUse) && typeof delta.toolUse.input === 'string') {
      const index = this.toolIndexes.get(Number(data.contentBlockIndex)) ?? 0
      this.addText(delta.toolUse.input)
      this.answered = true
      this.emit({ tool_calls: [{ index, function: { arguments: delta.toolUse.input } }] }, null)
    }
  }

  private onMessageStop(data: Json): void {
    this.answered = true
    this.emit({}, finishReason(data.stopReason) ?? 'stop')
  }

  private onMetadata(data: Json): void {
    this.usage = bedrockUsage(data.usage) ?? this.usage
    this.upstreamCompleted = true
    if (this.request.clientWantsUsage && this.usage) {
      const chunk = { ...this.chunkHead(), choices: [], usage: openAiUsage(this.usage) }
      this.output += `data: ${JSON.stringify(chunk)}\n\n`
    }
    this.doneSent = true
    this.output += DONE_EVENT
  }

  private fail(error: UpstreamError): void {
    this.streamError = error
    this.output += `data: ${toOpenAiErrorBody(error)}\n\n`
  }

  private emitText(field: 'content' | 'reasoning_content', text: string): void {
    if (text === '') return
    this.addText(text)
    this.answered = true
    this.emit({ [field]: text }, null)
  }

  private addText(text: string): void {
    this.completionTextLength += text.length
    if (this.completionText.length < TEXT_CAP) {
      this.completionText += text.slice(0, TEXT_CAP - this.completionText.length)
    }
  }

  private chunkHead(): Json {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.request.receivedAt ?? 0,
      model: this.request.mappedModel,
    }
  }

  private emit(delta: Json, finish: string | null): void {
    const chunk = {
      ...this.chunkHead(),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    }
    this.output += `data: ${JSON.stringify(chunk)}\n\n`
  }
}
