/**
 * A Gemini stream for a Gemini client: each event passed on as it came (framed as the client
 * asked: `alt=sse` events or one JSON array), its usageMetadata read for the bill. The upstream
 * is always asked with `alt=sse`. Complete once an event with a finishReason came.
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { geminiUsage, mapGeminiError } from '../gemini/response.ts'
import { isRecord } from '../shared/json.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import type { Usage } from '../shared/usage.ts'
import { GeminiStreamFraming, toGoogleErrorBody } from './from-chat-response.ts'

/** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
const TEXT_CAP = 1 << 20

export class GeminiNativeStream implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  keepAlives = 0
  streamError: UpstreamError | undefined
  private output = ''
  private readonly framing: GeminiStreamFraming
  private readonly parser = new SseParser(
    (event) => this.onEvent(event),
    () => {
      this.keepAlives += 1
    },
  )

  constructor(request: RelayRequest) {
    this.framing = new GeminiStreamFraming(request.native?.jsonArrayStream !== true)
  }

  get contentType() {
    return this.framing.contentType
  }

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete) this.output += this.framing.end()
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onEvent(event: SseEvent): void {
    let data: unknown
    try {
      data = JSON.parse(event.data)
    } catch {
      return
    }
    if (!isRecord(data)) return
    if (isRecord(data.error)) {
      this.streamError = mapGeminiError(200, event.data)
      this.output += this.framing.event(toGoogleErrorBody(this.streamError.status, this.streamError))
      return
    }
    const usage = geminiUsage(data.usageMetadata)
    if (usage) this.usage = usage
    for (const candidate of Array.isArray(data.candidates) ? data.candidates : []) {
      if (!isRecord(candidate)) continue
      this.read(candidate.content)
      if (candidate.finishReason != null) this.upstreamCompleted = true
    }
    if (isRecord(data.promptFeedback) && data.promptFeedback.blockReason != null)
      this.upstreamCompleted = true
    this.answered = true
    this.output += this.framing.event(event.data)
  }

  /** The generated text, for a local count when the upstream reports no usage. */
  private read(content: unknown): void {
    const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : []
    for (const part of parts) {
      if (!isRecord(part)) continue
      const text =
        typeof part.text === 'string'
          ? part.text
          : isRecord(part.functionCall)
            ? JSON.stringify(part.functionCall)
            : ''
      this.completionTextLength += text.length
      if (this.completionText.length < TEXT_CAP) {
        this.completionText += text.slice(0, TEXT_CAP - this.completionText.length)
      }
    }
  }
}
