/**
 * A Gemini `streamGenerateContent?alt=sse` stream as an OpenAI chat completion stream.
 * https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * Each event is a whole GenerateContentResponse holding the next piece of the answer: its text
 * and thought parts become content and reasoning_content deltas, a functionCall part (sent whole)
 * one tool call delta. usageMetadata is cumulative; the event with a finishReason ends the
 * answer. Gemini sends no end marker of its own: the stream is complete once a finishReason came,
 * then the usage chunk (if the client asked) and [DONE] follow at the upstream's end.
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { DONE_EVENT } from '../shared/openai-stream.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { toOpenAiErrorBody } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { finishReason, geminiUsage, mapGeminiError, openAiUsage, readParts, toolCallId } from './response.ts'

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
const TEXT_CAP = 1 << 20

export class GeminiToOpenAiStream implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  keepAlives = 0
  streamError: UpstreamError | undefined
  private output = ''
  private readonly parser = new SseParser(
    (event) => this.onEvent(event),
    () => this.onPing(),
  )
  private id = 'gemini'
  private model: string
  private opened = false
  private toolCalls = 0
  private doneSent = false

  constructor(private readonly request: RelayRequest) {
    this.model = request.mappedModel
  }

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete && !this.doneSent) {
      this.doneSent = true
      if (this.request.clientWantsUsage && this.usage) {
        const usage = openAiUsage(this.usage)
        this.output += `data: ${JSON.stringify({ ...this.chunkHead(), choices: [], usage })}\n\n`
      }
      this.output += DONE_EVENT
    }
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onPing(): void {
    if (this.doneSent) return
    this.keepAlives += 1
    this.output += ': keep-alive\n\n'
  }

  private onEvent(event: SseEvent): void {
    if (this.doneSent) return
    let data: unknown
    try {
      data = JSON.parse(event.data)
    } catch {
      return // not an event of the API
    }
    if (!isRecord(data)) return
    if (isRecord(data.error)) {
      this.onError(event.data)
      return
    }
    if (typeof data.responseId === 'string' && data.responseId !== '') this.id = data.responseId
    if (typeof data.modelVersion === 'string') this.model = data.modelVersion
    const usage = geminiUsage(data.usageMetadata)
    if (usage) this.usage = usage
    // Past the finish reason only the usage counts (an upstream may send it in one more event).
    if (this.upstreamCompleted) return
    const candidate = Array.isArray(data.candidates) ? data.candidates.find(isRecord) : undefined
    if (!candidate) {
      // A prompt blocked before any answer: an empty, filtered answer.
      if (isRecord(data.promptFeedback) && data.promptFeedback.blockReason != null) {
        this.open()
        this.finishWith('content_filter')
      }
      return
    }
    this.open()
    const read = readParts(candidate.content)
    this.emitText('reasoning_content', read.reasoning)
    this.emitText('content', read.text)
    for (const call of read.toolCalls) this.emitToolCall(call)
    const reason = finishReason(candidate.finishReason, this.toolCalls > 0)
    if (reason) this.finishWith(reason)
  }

  private open(): void {
    if (this.opened) return
    this.opened = true
    this.emit({ role: 'assistant', content: '' }, null)
  }

  private finishWith(reason: string): void {
    this.upstreamCompleted = true
    this.answered = true
    this.emit({}, reason)
  }

  private emitToolCall(call: { name: string; arguments: string }): void {
    const index = this.toolCalls
    this.toolCalls += 1
    this.addText(call.name + call.arguments)
    this.answered = true
    const toolCall = { index, id: toolCallId(this.id, index), type: 'function', function: call }
    this.emit({ tool_calls: [toolCall] }, null)
  }

  private onError(data: string): void {
    this.streamError = mapGeminiError(200, data)
    this.output += `data: ${toOpenAiErrorBody(this.streamError)}\n\n`
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
      id: `chatcmpl-${this.id}`,
      object: 'chat.completion.chunk',
      created: this.request.receivedAt ?? 0,
      model: this.model,
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
