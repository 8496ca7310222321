/**
 * DashScope's event stream (`X-DashScope-SSE: enable`, `incremental_output: true`) as an OpenAI
 * chat completion stream. Each `result` event carries the new text (or tool call pieces) and the
 * usage so far; the one whose finish_reason is not "null" ends the answer. An `error` event
 * carries DashScope's error body. Its `:HTTP_STATUS/200` lines are comments, not keep-alives.
 * https://help.aliyun.com/zh/model-studio/developer-reference/use-qwen-by-calling-api
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { isRecord, type Json } from '../shared/json.ts'
import { DONE_EVENT } from '../shared/openai-stream.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { toOpenAiErrorBody } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { aliError, aliUsage, contentText, finishReason, INSPECTION_FAILED, openAiUsage } from './response.ts'

/** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
const TEXT_CAP = 1 << 20

export class DashScopeToOpenAiStream implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  answered = false
  readonly keepAlives = 0
  streamError: UpstreamError | undefined
  private output = ''
  private readonly parser = new SseParser((event) => this.onEvent(event))
  private id = 'chatcmpl-dashscope'
  private roleSent = false
  private doneSent = false

  constructor(private readonly request: RelayRequest) {}

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.take()
  }

  finish(complete = true): string {
    this.parser.end()
    if (complete && !this.doneSent) this.end()
    return this.take()
  }

  private take(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private onEvent(event: SseEvent): void {
    if (this.doneSent) return
    let data: unknown
    try {
      data = JSON.parse(event.data)
    } catch {
      return
    }
    if (!isRecord(data)) return
    if (event.event === 'error' || (typeof data.code === 'string' && data.code !== '')) {
      this.onError(data)
      return
    }
    if (typeof data.request_id === 'string') this.id = data.request_id
    const usage = aliUsage(data.usage)
    if (usage) this.usage = usage
    const output = isRecord(data.output) ? data.output : {}
    const choice = Array.isArray(output.choices) && isRecord(output.choices[0]) ? output.choices[0] : {}
    const message = isRecord(choice.message) ? choice.message : {}
    if (typeof message.reasoning_content === 'string')
      this.emitText('reasoning_content', message.reasoning_content)
    this.emitText('content', contentText(message.content))
    if (Array.isArray(message.tool_calls)) this.emitToolCalls(message.tool_calls)
    const reason = finishReason(choice.finish_reason)
    if (reason) {
      this.answered = true
      this.emit({}, reason)
      this.end()
    }
  }

  private onError(data: Json): void {
    // The inspection stopping the answer half-way: OpenAI's filtered end, not an error.
    if (data.code === INSPECTION_FAILED && this.answered) {
      this.emit({}, 'content_filter')
      this.end()
      return
    }
    this.streamError = aliError(400, JSON.stringify(data))
    this.output += `data: ${toOpenAiErrorBody(this.streamError)}\n\n`
  }

  private end(): void {
    this.upstreamCompleted = true
    if (this.request.clientWantsUsage && this.usage) {
      this.output += `data: ${JSON.stringify({ ...this.chunkHead(), choices: [], usage: openAiUsage(this.usage) })}\n\n`
    }
    this.doneSent = true
    this.output += DONE_EVENT
  }

  private emitToolCalls(calls: unknown[]): void {
    const deltas = calls.filter(isRecord).map((call, position) => {
      const fn = isRecord(call.function) ? call.function : {}
      const delta: Json = { index: typeof call.index === 'number' ? call.index : position }
      if (typeof call.id === 'string' && call.id !== '') delta.id = call.id
      if (typeof call.type === 'string' && call.type !== '') delta.type = call.type
      const fnDelta: Json = {}
      if (typeof fn.name === 'string' && fn.name !== '') fnDelta.name = fn.name
      if (typeof fn.arguments === 'string') {
        fnDelta.arguments = fn.arguments
        this.addText(fn.arguments)
      }
      delta.function = fnDelta
      return delta
    })
    if (deltas.length === 0) return
    this.answered = true
    this.emit({ tool_calls: deltas }, null)
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
    const withRole = this.roleSent ? delta : { role: 'assistant', ...delta }
    this.roleSent = true
    const chunk = {
      ...this.chunkHead(),
      choices: [{ index: 0, delta: withRole, logprobs: null, finish_reason: finish }],
    }
    this.output += `data: ${JSON.stringify(chunk)}\n\n`
  }
}
