/**
 * A Replicate prediction's event stream as an OpenAI chat completion stream: each `output` event's
 * data is text (its lines joined with newlines, as SSE defines), `done` ends the answer (its
 * `reason` says when it was canceled), `error` carries the failure. No token counts come with it:
 * the relay counts the text.
 * https://replicate.com/docs/topics/predictions/streaming
 */
import type { RelayRequest } from '../adaptor.ts'
import { parseJsonObject } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { SseChatStream } from '../shared/sse-chat-stream.ts'
import { localError } from '../shared/upstream-error.ts'

export class ReplicateToOpenAiStream extends SseChatStream {
  constructor(request: RelayRequest) {
    super(request, undefined, false)
    this.writer.id = 'replicate'
  }

  // Replicate's events are told apart by name, and an `output` event's data is text: all are read here.
  protected override onEvent(event: SseEvent): void {
    if (event.event === 'output') this.writer.text('content', event.data)
    else if (event.event === 'done') this.onDone(event.data)
    else if (event.event === 'error') this.onError(event.data)
  }

  protected onData(): void {}

  private onDone(data: string): void {
    const reason = parseJsonObject(data)?.reason
    if (reason === 'canceled' || reason === 'error') {
      this.onError(JSON.stringify({ detail: `the upstream prediction ended: ${reason}` }))
      return
    }
    this.writer.finishReason('stop')
    this.writer.end()
  }

  private onError(data: string): void {
    const detail = parseJsonObject(data)?.detail
    const message = typeof detail === 'string' ? detail : data
    this.writer.error(
      localError(502, 'prediction_failed', message || 'the upstream prediction failed', {
        retryable: true,
        type: 'upstream_error',
      }),
    )
  }
}
