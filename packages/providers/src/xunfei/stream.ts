/**
 * Spark answer frames (one per line, as the pipeline's WebSocket transport hands them on) as an
 * OpenAI chat completion stream: each frame's text a content chunk, each function call a tool call
 * chunk; the last frame (status 2) the finish, the usage and `[DONE]`; an error frame the stream's
 * error.
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { DONE_EVENT } from '../shared/openai-stream.ts'
import { toOpenAiErrorBody } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { readFrame } from './frames.ts'
import { type SparkFunctionCall, toolCallOf } from './functions.ts'

const TEXT_CAP = 1 << 20
const LINE_FEED = 0x0a

export class SparkToOpenAiStream implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  readonly keepAlives = 0
  streamError: UpstreamError | undefined
  private pending: Buffer[] = []
  private output = ''
  private id = 'chatcmpl-spark'
  private roleSent = false
  private doneSent = false
  /** Tool calls sent so far: their index in the answer. */
  private toolCalls = 0

  constructor(private readonly request: RelayRequest) {}

  push(chunk: Buffer): string {
    let start = 0
    for (let end = chunk.indexOf(LINE_FEED); end !== -1; end = chunk.indexOf(LINE_FEED, start)) {
      this.pending.push(chunk.subarray(start, end))
      this.onLine(Buffer.concat(this.pending).toString('utf8'))
      this.pending = []
      start = end + 1
    }
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)))
    return this.take()
  }

  finish(complete = true): string {
    if (this.pending.length > 0) this.onLine(Buffer.concat(this.pending).toString('utf8'))
    this.pending = []
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

  private onLine(line: string): void {
    if (this.doneSent) return
    const frame = readFrame(line)
    if (!frame) return
    if (frame.error) {
      this.streamError = frame.error
      this.output += `data: ${toOpenAiErrorBody(frame.error)}\n\n`
      return
    }
    if (frame.sid) this.id = frame.sid
    if (frame.usage) this.usage = frame.usage
    if (frame.content !== '') {
      this.completionTextLength += frame.content.length
      if (this.completionText.length < TEXT_CAP) {
        this.completionText += frame.content.slice(0, TEXT_CAP - this.completionText.length)
      }
      this.answered = true
      this.emit({ content: frame.content }, null)
    }
    for (const call of frame.functionCalls) this.emitToolCall(call)
    if (frame.status === 2) this.end()
  }

  /** A function call, whole in one chunk (Spark sends it in one frame). */
  private emitToolCall(call: SparkFunctionCall): void {
    const index = this.toolCalls
    this.toolCalls += 1
    this.completionTextLength += call.arguments.length
    if (this.completionText.length < TEXT_CAP) {
      this.completionText += call.arguments.slice(0, TEXT_CAP - this.completionText.length)
    }
    this.answered = true
    this.emit({ tool_calls: [{ index, ...toolCallOf(call, this.id, index) }] }, null)
  }

  private end(): void {
    this.answered = true
    this.emit({}, this.toolCalls > 0 ? 'tool_calls' : 'stop')
    if (this.request.clientWantsUsage && this.usage) {
      const usage = {
        prompt_tokens: this.usage.promptTokens,
        completion_tokens: this.usage.completionTokens,
        total_tokens: this.usage.totalTokens,
      }
      this.output += `data: ${JSON.stringify({ ...this.head(), choices: [], usage })}\n\n`
    }
    this.upstreamCompleted = true
    this.doneSent = true
    this.output += DONE_EVENT
  }

  private head(): Record<string, unknown> {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.request.receivedAt ?? 0,
      model: this.request.mappedModel,
    }
  }

  private emit(delta: Record<string, unknown>, finish: string | null): void {
    const withRole = this.roleSent ? delta : { role: 'assistant', ...delta }
    this.roleSent = true
    const chunk = {
      ...this.head(),
      choices: [{ index: 0, delta: withRole, logprobs: null, finish_reason: finish }],
    }
    this.output += `data: ${JSON.stringify(chunk)}\n\n`
  }
}
