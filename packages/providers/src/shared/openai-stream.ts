/**
 * Transformer for OpenAI chat/completions streams: re-frames each upstream event as
 * `data: ...\n\n`, drops what the client must not see, records usage, and guarantees exactly one
 * final `data: [DONE]`.
 * https://platform.openai.com/docs/api-reference/chat-streaming
 */
import type { StreamTransformer, UpstreamError } from '../adaptor.ts'
import { scanPayload } from './json-scan.ts'
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
const DATA_PREFIX = Buffer.from('data: ')
const DONE_PAYLOAD = Buffer.from('[DONE]')
const LINE_FEED = 0x0a
const CARRIAGE_RETURN = 0x0d
const EMPTY_CHOICES = Buffer.from('"choices":[]')

/** Which rarer markers a chunk holds at all (see pushWholeEvents). */
interface ChunkScan {
  /** Where `"choices":[]` occurs in the chunk (Azure's content-filter chunks, the usage chunk). */
  emptyChoicesAt: number[]
}

function positionsOf(chunk: Buffer, needle: Buffer): number[] {
  const positions: number[] = []
  let index = chunk.indexOf(needle)
  while (index !== -1) {
    positions.push(index)
    index = chunk.indexOf(needle, index + needle.length)
  }
  return positions
}

/** True when `chunk[start, end)` holds only JSON whitespace (the slow path's `data.trim() === ''`). */
function isBlank(chunk: Buffer, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const byte = chunk[index]
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false
  }
  return true
}
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
  private readonly textKeyBytes: Buffer
  private readonly textCap: number

  constructor(private readonly options: OpenAiStreamOptions) {
    // Chat deltas carry `choices[].delta.content`; legacy completions carry `choices[].text`.
    this.textKey = options.mode === 'chat' ? 'content' : 'text'
    this.textKeyBytes = Buffer.from(this.textKey)
    this.textCap = options.completionTextCap ?? DEFAULT_TEXT_CAP
  }

  push(chunk: Buffer): string | Buffer {
    if (this.parser.idle) {
      const passed = this.pushWholeEvents(chunk)
      if (passed !== undefined) return passed
    }
    this.parser.push(chunk)
    return this.takeOutput()
  }

  /**
   * The fast path for the usual shape of OpenAI-compatible streams: a chunk made only of whole
   * `data: <payload>\n\n` events (no CR, no other fields). Each payload is judged exactly as
   * handleEvent would, without splitting lines into strings; the chunk's own bytes go to the
   * client when every event is forwarded. Undefined for any other chunk (the parser takes it).
   */
  private pushWholeEvents(chunk: Buffer): Buffer | undefined {
    if (chunk.indexOf(CARRIAGE_RETURN) !== -1) return undefined
    const bounds: number[] = []
    let position = 0
    while (position < chunk.length) {
      const prefixEnd = position + DATA_PREFIX.length
      if (
        prefixEnd > chunk.length ||
        chunk.compare(DATA_PREFIX, 0, DATA_PREFIX.length, position, prefixEnd) !== 0
      )
        return undefined
      const lineEnd = chunk.indexOf(LINE_FEED, position)
      if (lineEnd === -1 || chunk[lineEnd + 1] !== LINE_FEED) return undefined
      bounds.push(position, lineEnd + 2)
      position = lineEnd + 2
    }
    // Searched once per chunk rather than once per event (each search runs to the chunk's end).
    const scan: ChunkScan = { emptyChoicesAt: this.emptyChoicesIn(chunk) }
    let forwarded: Buffer[] | undefined
    for (let index = 0; index < bounds.length; index += 2) {
      const eventStart = bounds[index]!
      const eventEnd = bounds[index + 1]!
      const forward = this.judgePayload(chunk, eventStart + DATA_PREFIX.length, eventEnd - 2, scan)
      if (!forward && !forwarded) forwarded = [chunk.subarray(0, eventStart)]
      else if (forward && forwarded) forwarded.push(chunk.subarray(eventStart, eventEnd))
    }
    return forwarded ? Buffer.concat(forwarded) : chunk
  }

  /**
   * What to do with one event whose payload is `chunk[start, end)`: true to forward it. Nothing
   * follows [DONE]; blank events are dropped; events with usage or an error are parsed.
   */
  private judgePayload(chunk: Buffer, start: number, end: number, scan: ChunkScan): boolean {
    if (this.doneSent) return false
    if (
      end - start === DONE_PAYLOAD.length &&
      chunk.compare(DONE_PAYLOAD, 0, DONE_PAYLOAD.length, start, end) === 0
    ) {
      this.upstreamCompleted = true
      this.doneSent = true
      return true
    }
    const payload = scanPayload(chunk, start, end, this.textKeyBytes)
    if (payload.usage || payload.errorObject) {
      return this.handleParsedEvent(chunk.toString('utf8', start, end))
    }
    if (isBlank(chunk, start, end)) return false
    // Azure sends content-filter chunks with no choices and no usage; one-api drops them because
    // clients index choices[0] (reference §2.7).
    if (scan.emptyChoicesAt.some((position) => position >= start && position < end)) return false
    this.appendText(payload.texts)
    return true
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

  /** An event the line parser assembled: judged like a fast-path one, re-framed as `data: ...`. */
  private handleEvent(event: SseEvent): void {
    const payload = Buffer.from(event.data)
    const scan = { emptyChoicesAt: this.emptyChoicesIn(payload) }
    if (this.judgePayload(payload, 0, payload.length, scan)) this.output += `data: ${event.data}\n\n`
  }

  private emptyChoicesIn(chunk: Buffer): number[] {
    return this.options.mode === 'chat' ? positionsOf(chunk, EMPTY_CHOICES) : []
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
