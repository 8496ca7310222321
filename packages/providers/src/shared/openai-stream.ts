/**
 * Transformer for OpenAI chat/completions streams: re-frames each upstream event as
 * `data: ...\n\n`, drops what the client must not see, records usage, and guarantees exactly one
 * final `data: [DONE]`.
 * https://platform.openai.com/docs/api-reference/chat-streaming
 */
import type { StreamTransformer, UpstreamError } from '../adaptor.ts'
import { hasKeyWithValue, stringValuesOf } from './json-scan.ts'
import { type SseEvent, SseParser } from './sse.ts'
import { mapUpstreamError } from './upstream-error.ts'
import { normaliseUsage, type Usage } from './usage.ts'

export interface OpenAiStreamOptions {
  readonly mode: 'chat' | 'completions'
  /**
   * The relay added stream_options.include_usage itself: the usage-only chunk (empty choices plus
   * usage) is recorded but not forwarded, since the client did not ask for it.
   * https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options
   */
  readonly dropUsageChunk: boolean
  /** Upper bound on the kept completion text (UTF-16 units); the length is counted beyond it. */
  readonly completionTextCap?: number
}

const DONE_EVENT = 'data: [DONE]\n\n'
/** About 250k tokens of English: enough for any single completion we may need to count locally. */
const DEFAULT_TEXT_CAP = 1 << 20

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

class OpenAiStreamTransformer implements StreamTransformer {
  usage: Usage | undefined
  completionText = ''
  completionTextLength = 0
  upstreamCompleted = false
  streamError: UpstreamError | undefined
  private output = ''
  private doneSent = false
  private readonly parser = new SseParser((event) => this.handleEvent(event))
  private readonly textKey: string
  private readonly textCap: number

  constructor(private readonly options: OpenAiStreamOptions) {
    // Chat deltas carry `choices[].delta.content`; legacy completions carry `choices[].text`.
    this.textKey = options.mode === 'chat' ? 'content' : 'text'
    this.textCap = options.completionTextCap ?? DEFAULT_TEXT_CAP
  }

  push(chunk: Buffer): string {
    this.parser.push(chunk)
    return this.takeOutput()
  }

  finish(): string {
    this.parser.end()
    if (!this.doneSent) {
      this.doneSent = true
      this.output += DONE_EVENT
    }
    return this.takeOutput()
  }

  private takeOutput(): string {
    const output = this.output
    this.output = ''
    return output
  }

  private handleEvent(event: SseEvent): void {
    if (this.doneSent) return // nothing may follow [DONE]
    const data = event.data
    if (data === '[DONE]') {
      this.upstreamCompleted = true
      this.doneSent = true
      this.output += DONE_EVENT
      return
    }
    if (data.trim() === '') return
    const mayCarryUsage = hasKeyWithValue(data, 'usage', '{')
    const mayCarryError = hasKeyWithValue(data, 'error', '{')
    if (mayCarryUsage || mayCarryError) {
      if (!this.handleParsedEvent(data)) return
    } else {
      // Azure sends content-filter chunks with no choices and no usage; one-api drops them
      // because clients index choices[0] (reference §2.7).
      if (this.options.mode === 'chat' && data.includes('"choices":[]')) return
      this.appendText(stringValuesOf(data, this.textKey))
    }
    this.output += `data: ${data}\n\n`
  }

  /** Handles a chunk that needs a real parse. Returns false when it must not be forwarded. */
  private handleParsedEvent(data: string): boolean {
    let chunk: unknown
    try {
      chunk = JSON.parse(data)
    } catch {
      return true // unparsable chunks are forwarded as they are, like one-api does
    }
    if (!isRecord(chunk)) return true
    if (isRecord(chunk.error)) this.streamError = mapUpstreamError(200, data)
    const usage = normaliseUsage(chunk.usage)
    if (usage) this.usage = usage
    const choices = Array.isArray(chunk.choices) ? chunk.choices : []
    for (const choice of choices) {
      if (!isRecord(choice)) continue
      const holder = this.options.mode === 'chat' ? choice.delta : choice
      if (isRecord(holder) && typeof holder[this.textKey] === 'string') {
        this.appendText([holder[this.textKey] as string])
      }
    }
    const usageOnly = usage !== undefined && choices.length === 0
    return !(usageOnly && this.options.dropUsageChunk)
  }

  private appendText(pieces: string[]): void {
    for (const piece of pieces) {
      this.completionTextLength += piece.length
      if (this.completionText.length < this.textCap) {
        this.completionText += piece.slice(0, this.textCap - this.completionText.length)
      }
    }
  }
}

export const createOpenAiStreamTransformer = (options: OpenAiStreamOptions): StreamTransformer =>
  new OpenAiStreamTransformer(options)
