/**
 * An OpenAI chat stream (what an OpenAI-format adaptor's transformer writes) as Gemini's
 * streamGenerateContent answer, for a Gemini client served by a channel of another type.
 * https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * Each text or reasoning delta becomes a GenerateContentResponse with that part; tool calls are
 * gathered and sent whole (Gemini streams a functionCall in one piece) in the last event, which
 * also carries the finishReason and the usageMetadata, at the chat's [DONE].
 */
import type { RelayRequest, StreamTransformer } from '../adaptor.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'
import {
  GeminiStreamFraming,
  geminiFinishReason,
  toGoogleErrorBody,
  usageMetadata,
} from './from-chat-response.ts'

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export class ChatStreamToGemini implements StreamTransformer {
  private output = ''
  private readonly parser = new SseParser(
    (sse) => this.onEvent(sse),
    () => undefined,
  )
  private readonly framing: GeminiStreamFraming
  private responseId = 'gemini'
  private finishReason: unknown
  private readonly calls = new Map<number, { name: string; arguments: string }>()
  private ended = false

  constructor(
    private readonly inner: StreamTransformer,
    private readonly request: RelayRequest,
  ) {
    this.framing = new GeminiStreamFraming(request.native?.jsonArrayStream !== true)
  }

  get contentType() {
    return this.framing.contentType
  }
  get usage() {
    return this.inner.usage
  }
  get completionText() {
    return this.inner.completionText
  }
  get completionTextLength() {
    return this.inner.completionTextLength
  }
  get upstreamCompleted() {
    return this.inner.upstreamCompleted
  }
  get answered() {
    return this.inner.answered
  }
  get keepAlives() {
    return this.inner.keepAlives
  }
  get streamError() {
    return this.inner.streamError
  }

  push(chunk: Buffer): string {
    const chat = this.inner.push(chunk)
    if (chat.length > 0) this.parser.push(typeof chat === 'string' ? Buffer.from(chat) : chat)
    return this.take()
  }

  finish(complete = true): string {
    const chat = this.inner.finish(complete)
    if (chat.length > 0) this.parser.push(Buffer.from(chat))
    this.parser.end()
    if (complete) this.end()
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onEvent(sse: SseEvent): void {
    if (this.ended) return
    if (sse.data === '[DONE]') {
      this.end()
      return
    }
    let chunk: unknown
    try {
      chunk = JSON.parse(sse.data)
    } catch {
      return
    }
    if (!isRecord(chunk)) return
    if (isRecord(chunk.error)) {
      const error = mapUpstreamError(200, sse.data)
      this.output += this.framing.event(toGoogleErrorBody(error.status, error))
      return
    }
    if (typeof chunk.id === 'string' && chunk.id !== '') this.responseId = chunk.id
    const choice = Array.isArray(chunk.choices) ? chunk.choices.find(isRecord) : undefined
    if (!choice) return
    const delta = isRecord(choice.delta) ? choice.delta : {}
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') this.emit([{ text: reasoning, thought: true }])
    if (typeof delta.content === 'string' && delta.content !== '') this.emit([{ text: delta.content }])
    for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) this.gather(call)
    if (choice.finish_reason != null) this.finishReason = choice.finish_reason
  }

  private gather(call: unknown): void {
    if (!isRecord(call)) return
    const index = typeof call.index === 'number' ? call.index : this.calls.size
    const gathered = this.calls.get(index) ?? { name: '', arguments: '' }
    const fn = isRecord(call.function) ? call.function : {}
    if (typeof fn.name === 'string') gathered.name += fn.name
    if (typeof fn.arguments === 'string') gathered.arguments += fn.arguments
    this.calls.set(index, gathered)
  }

  /** The last event: the function calls, the finish reason and the usage. */
  private end(): void {
    if (this.ended) return
    this.ended = true
    const parts = [...this.calls.values()].map((call) => ({
      functionCall: { name: call.name, args: parseObject(call.arguments) },
    }))
    const metadata = usageMetadata(this.inner.usage)
    const last = {
      candidates: [
        {
          content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
          finishReason: geminiFinishReason(this.finishReason),
          index: 0,
        },
      ],
      ...(metadata ? { usageMetadata: metadata } : {}),
      modelVersion: this.request.mappedModel,
      responseId: this.responseId,
    }
    this.output += this.framing.event(JSON.stringify(last)) + this.framing.end()
  }

  private emit(parts: Json[]): void {
    const event = {
      candidates: [{ content: { role: 'model', parts }, index: 0 }],
      modelVersion: this.request.mappedModel,
      responseId: this.responseId,
    }
    this.output += this.framing.event(JSON.stringify(event))
  }
}

function parseObject(text: string): Json {
  try {
    const parsed = JSON.parse(text)
    return isRecord(parsed) ? parsed : {}
  } catch {
    return {}
  }
}
