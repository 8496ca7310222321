/**
 * An Anthropic Messages event stream as an OpenAI chat completion stream.
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming
 * message_start opens the answer (its id, model and prompt usage); each content block's deltas
 * become content, tool call or reasoning_content chunks; message_delta carries the stop reason and
 * the output usage; message_stop ends it (then the usage chunk, if the client asked, and [DONE]).
 */
import type { RelayRequest, StreamTransformer, UpstreamError } from '../adaptor.ts'
import { DONE_EVENT } from '../shared/openai-stream.ts'
import { type SseEvent, SseParser } from '../shared/sse.ts'
import { mapUpstreamError, toOpenAiErrorBody } from '../shared/upstream-error.ts'
import type { Usage } from '../shared/usage.ts'
import { anthropicUsage, finishReason, openAiUsage } from './response.ts'

type Json = Record<string, unknown>

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
const TEXT_CAP = 1 << 20

export class AnthropicToOpenAiStream implements StreamTransformer {
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
  private id = 'msg'
  private model: string
  private rawUsage: Json = {}
  /** Content block index -> OpenAI tool call index. */
  private readonly toolIndexes = new Map<number, number>()
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
    const handlers: Record<string, () => void> = {
      message_start: () => this.onMessageStart(data.message),
      content_block_start: () => this.onBlockStart(data),
      content_block_delta: () => this.onBlockDelta(data),
      message_delta: () => this.onMessageDelta(data),
      message_stop: () => this.onMessageStop(),
      ping: () => this.onPing(),
      error: () => this.onError(event.data),
    }
    handlers[String(data.type ?? event.event)]?.()
  }

  private onMessageStart(message: unknown): void {
    if (!isRecord(message)) return
    if (typeof message.id === 'string') this.id = message.id
    if (typeof message.model === 'string') this.model = message.model
    this.addUsage(message.usage)
    this.emit({ role: 'assistant', content: '' }, null)
  }

  private onBlockStart(data: Json): void {
    const block = data.content_block
    if (!isRecord(block)) return
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
      this.emitText('content', block.text)
    } else if (block.type === 'tool_use') {
      const toolIndex = this.toolIndexes.size
      this.toolIndexes.set(Number(data.index), toolIndex)
      this.addText(String(block.name ?? ''))
      this.answered = true
      this.emit(
        {
          tool_calls: [
            {
              index: toolIndex,
              id: block.id,
              type: 'function',
              function: { name: block.name, arguments: '' },
            },
          ],
        },
        null,
      )
    }
  }

  private onBlockDelta(data: Json): void {
    const delta = data.delta
    if (!isRecord(delta)) return
    if (delta.type === 'text_delta' && typeof delta.text === 'string') this.emitText('content', delta.text)
    else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
      this.emitText('reasoning_content', delta.thinking)
    } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      const index = this.toolIndexes.get(Number(data.index)) ?? 0
      this.addText(delta.partial_json)
      this.answered = true
      this.emit({ tool_calls: [{ index, function: { arguments: delta.partial_json } }] }, null)
    }
  }

  private onMessageDelta(data: Json): void {
    this.addUsage(data.usage)
    const delta = isRecord(data.delta) ? data.delta : {}
    const reason = finishReason(delta.stop_reason)
    if (reason) {
      this.answered = true
      this.emit({}, reason)
    }
  }

  private onMessageStop(): void {
    this.upstreamCompleted = true
    if (this.request.clientWantsUsage && this.usage) {
      this.output += `data: ${JSON.stringify({ ...this.chunkHead(), choices: [], usage: openAiUsage(this.usage) })}\n\n`
    }
    this.doneSent = true
    this.output += DONE_EVENT
  }

  private onError(data: string): void {
    this.streamError = mapUpstreamError(200, data)
    this.output += `data: ${toOpenAiErrorBody(this.streamError)}\n\n`
  }

  /** message_start's usage, then message_delta's counts over it (output_tokens is cumulative). */
  private addUsage(raw: unknown): void {
    if (!isRecord(raw)) return
    for (const [key, value] of Object.entries(raw)) if (value !== null) this.rawUsage[key] = value
    this.usage = anthropicUsage(this.rawUsage)
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
