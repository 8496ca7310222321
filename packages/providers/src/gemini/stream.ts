/**
 * A Gemini `streamGenerateContent?alt=sse` stream as an OpenAI chat completion stream.
 * https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * Each event is a whole GenerateContentResponse holding the next piece of the answer: its text
 * and thought parts become content and reasoning_content deltas, a functionCall part (sent whole)
 * one tool call delta. usageMetadata is cumulative; the event with a finishReason ends the
 * answer. Gemini sends no end marker of its own: the stream is complete once a finishReason came,
 * then the usage chunk (if the client asked) and [DONE] follow at the upstream's end.
 */
import type { RelayRequest } from '../adaptor.ts'
import { isRecord, type Json } from '../shared/json.ts'
import type { SseEvent } from '../shared/sse.ts'
import { SseChatStream } from '../shared/sse-chat-stream.ts'
import { finishReason, geminiUsage, mapGeminiError, openAiUsage, readParts, toolCallId } from './response.ts'

export class GeminiToOpenAiStream extends SseChatStream {
  /** Gemini's responseId (the chunks' id is `chatcmpl-` and it). */
  private responseId = 'gemini'
  private toolCalls = 0

  constructor(request: RelayRequest) {
    super(request, openAiUsage)
    this.writer.id = `chatcmpl-${this.responseId}`
  }

  protected override onUpstreamEnd(): void {
    this.writer.close(true)
  }

  protected onData(data: Json, event: SseEvent): void {
    if (this.writer.ended) return
    if (isRecord(data.error)) {
      this.writer.error(mapGeminiError(200, event.data))
      return
    }
    if (typeof data.responseId === 'string' && data.responseId !== '') {
      this.responseId = data.responseId
      this.writer.id = `chatcmpl-${data.responseId}`
    }
    if (typeof data.modelVersion === 'string') this.writer.model = data.modelVersion
    const usage = geminiUsage(data.usageMetadata)
    if (usage) this.writer.usage = usage
    // Past the finish reason only the usage counts (an upstream may send it in one more event).
    if (this.writer.upstreamCompleted) return
    const candidate = Array.isArray(data.candidates) ? data.candidates.find(isRecord) : undefined
    if (!candidate) {
      // A prompt blocked before any answer: an empty, filtered answer.
      if (isRecord(data.promptFeedback) && data.promptFeedback.blockReason != null) {
        this.finishWith('content_filter')
      }
      return
    }
    this.writer.open()
    const read = readParts(candidate.content)
    this.writer.text('reasoning_content', read.reasoning)
    this.writer.text('content', read.text)
    for (const call of read.toolCalls) {
      const index = this.toolCalls
      this.toolCalls += 1
      this.writer.toolCall(index, toolCallId(this.responseId, index), call.name, call.arguments)
    }
    const reason = finishReason(candidate.finishReason, this.toolCalls > 0)
    if (reason) this.finishWith(reason)
  }

  /** The answer is complete; [DONE] follows at the upstream's end (Gemini has no end marker). */
  private finishWith(reason: string): void {
    this.writer.upstreamCompleted = true
    this.writer.finishReason(reason)
  }
}
