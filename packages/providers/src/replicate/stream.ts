/**
 * A Replicate prediction's event stream as an OpenAI chat completion stream: each `output` event's
 * data is text (its lines joined with newlines, as SSE defines), `done` ends the answer (its
 * `reason` says when it was canceled), `error` carries the failure. No token counts come with it:
 * the relay counts the text.
 * https://replicate.com/docs/topics/predictions/streaming
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { DONE_EVENT } from '../shared/openai-stream.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { localError, toOpenAiErrorBody } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'

const TEXT_CAP = 1 << 20

export class ReplicateToOpenAiStream implements StreamTransformer {
  readonly usage: Usage | undefined = undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  readonly keepAlives = 0
  streamError: UpstreamError | undefined
  private output = ''
  private readonly parser = new SseParser((event) => this.onEvent(event))
  private roleSent = false
  private doneSent = false

  constructor(private readonly request: RelayRequest) {}

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.take()
  }

  finish(complete = true): string {
    this.parser.end()
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

  private onEvent(event: SseEvent): void {
    if (this.doneSent) return
    if (event.event === 'output') this.onText(event.data)
    else if (event.event === 'done') this.onDone(event.data)
    else if (event.event === 'error') this.onError(event.data)
  }

  private onText(text: string): void {
    if (text === '') return
    this.completionTextLength += text.length
    if (this.completionText.length < TEXT_CAP)
      this.completionText += text.slice(0, TEXT_CAP - this.completionText.length)
    this.answered = true
    this.emit({ content: text }, null)
  }

  private onDone(data: string): void {
    let reason: unknown
    try {
      reason = (JSON.parse(data) as { reason?: unknown }).reason
    } catch {
      reason = undefined
    }
    if (reason === 'canceled' || reason === 'error') {
      this.onError(JSON.stringify({ detail: `the upstream prediction ended: ${reason}` }))
      return
    }
    this.answered = true
    this.emit({}, 'stop')
    this.upstreamCompleted = true
    this.doneSent = true
    this.output += DONE_EVENT
  }

  private onError(data: string): void {
    let detail = data
    try {
      const parsed = JSON.parse(data) as { detail?: unknown }
      if (typeof parsed.detail === 'string') detail = parsed.detail
    } catch {}
    this.streamError = localError(502, 'prediction_failed', detail || 'the upstream prediction failed', {
      retryable: true,
      type: 'upstream_error',
    })
    this.output += `data: ${toOpenAiErrorBody(this.streamError)}\n\n`
  }

  private emit(delta: Record<string, unknown>, finish: string | null): void {
    const withRole = this.roleSent ? delta : { role: 'assistant', ...delta }
    this.roleSent = true
    const chunk = {
      id: 'replicate',
      object: 'chat.completion.chunk',
      created: this.request.receivedAt ?? 0,
      model: this.request.mappedModel,
      choices: [{ index: 0, delta: withRole, logprobs: null, finish_reason: finish }],
    }
    this.output += `data: ${JSON.stringify(chunk)}\n\n`
  }
}
