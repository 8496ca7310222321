/**
 * An OpenAI chat stream (what an OpenAI-format adaptor's transformer writes) as Gemini's
 * streamGenerateContent answer, for a Gemini client served by a channel of another type.
 * https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * Each text or reasoning delta becomes a GenerateContentResponse with that part; tool calls are
 * gathered and sent whole (Gemini streams a functionCall in one piece) in the last event, which
 * also carries the finishReason and the usageMetadata, at the chat's [DONE].
 */
import type { RelayRequest, StreamTransformer } from '../adaptor.ts'
import { ChatStreamBridge } from '../shared/chat-stream-bridge.ts'
import { isRecord, type Json, parseJsonObject } from '../shared/json.ts'
import { mapUpstreamError } from '../shared/upstream-error.ts'
import {
  GeminiStreamFraming,
  geminiFinishReason,
  toGoogleErrorBody,
  usageMetadata,
} from './from-chat-response.ts'

export class ChatStreamToGemini extends ChatStreamBridge {
  private readonly framing: GeminiStreamFraming
  private responseId = 'gemini'
  private readonly calls = new Map<number, { name: string; arguments: string }>()

  constructor(inner: StreamTransformer, request: RelayRequest) {
    super(inner, request)
    this.framing = new GeminiStreamFraming(request.native?.jsonArrayStream !== true)
  }

  get contentType() {
    return this.framing.contentType
  }

  /** Gemini's stream has no comment lines: the chat's keep-alives are dropped. */
  protected override onComment(): void {}

  protected onError(_error: Json, data: string): void {
    const error = mapUpstreamError(200, data)
    this.write(this.framing.event(toGoogleErrorBody(error.status, error)))
  }

  protected onChunk(chunk: Json): void {
    if (typeof chunk.id === 'string' && chunk.id !== '') this.responseId = chunk.id
  }

  protected onReasoning(text: string): void {
    this.emit([{ text, thought: true }])
  }

  protected onText(text: string): void {
    this.emit([{ text }])
  }

  /** Tool calls are gathered and sent whole at the end. */
  protected onToolCall(call: Json): void {
    const index = typeof call.index === 'number' ? call.index : this.calls.size
    const gathered = this.calls.get(index) ?? { name: '', arguments: '' }
    const fn = isRecord(call.function) ? call.function : {}
    if (typeof fn.name === 'string') gathered.name += fn.name
    if (typeof fn.arguments === 'string') gathered.arguments += fn.arguments
    this.calls.set(index, gathered)
  }

  /** The last event: the function calls, the finish reason and the usage. */
  protected onEnd(): void {
    const parts = [...this.calls.values()].map((call) => ({
      functionCall: { name: call.name, args: parseJsonObject(call.arguments) ?? {} },
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
    this.write(this.framing.event(JSON.stringify(last)) + this.framing.end())
  }

  private emit(parts: Json[]): void {
    const event = {
      candidates: [{ content: { role: 'model', parts }, index: 0 }],
      modelVersion: this.request.mappedModel,
      responseId: this.responseId,
    }
    this.write(this.framing.event(JSON.stringify(event)))
  }
}
