/**
 * Transformer for OpenAI chat/completions streams: re-frames each upstream event as
 * `data: ...\n\n`, drops what the client must not see, records usage, and guarantees exactly one
 * final `data: [DONE]`.
 * https://platform.openai.com/docs/api-reference/chat-streaming
 */
import type { StreamTransformer, UpstreamError } from '../adaptor.ts'
import { isRecord } from './json.ts'
import {
  isJsonWhitespace,
  keyBefore,
  objectsHeldBy,
  skipBackOverWhitespace,
  stringValuesOf,
} from './json-scan.ts'
import { isOpeningOnly } from './openai-opening.ts'
import { type SseEvent, SseParser } from './sse.ts'
import { mapUpstreamError } from './upstream-error.ts'
import { readUsageObject, UNREADABLE, type Usage } from './usage.ts'

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
  /**
   * For a provider that reports failures in an object of its own inside events that look like
   * chunks (MiniMax's `base_resp`): events holding an object under `key` are read with `read`, and
   * one that is an error is recorded as the stream's error and not forwarded. Absent for the others.
   */
  readonly bodyError?: BodyErrorReader
}

/** Reads the object opening at `open` in `buffer[open, end)` as an error, or undefined when it is none. */
export interface BodyErrorReader {
  readonly key: string
  read(buffer: Buffer, open: number, end: number): UpstreamError | undefined
}

/** The event that closes an OpenAI stream; finish() adds it when the upstream ended without one. */
export const DONE_EVENT = 'data: [DONE]\n\n'
const DATA_PREFIX = 'data: '
const DONE_PAYLOAD = '[DONE]'
/** Keys whose object value makes an event need reading: its usage, an error sent mid-stream. */
const OBJECT_KEYS_TO_READ = ['usage', 'error']
// What a local count reads as generated: chat deltas carry `choices[].delta.content`, the
// arguments of tool calls (and of the older function_call), refusals and the reasoning some
// providers stream as `reasoning_content`; legacy completions carry `choices[].text`.
const CHAT_TEXT_KEYS = ['content', 'arguments', 'refusal', 'reasoning_content'].map((key) => Buffer.from(key))
const COMPLETIONS_TEXT_KEYS = [Buffer.from('text')]
/** About 250k tokens of English: enough for any single completion we may need to count locally. */
const DEFAULT_TEXT_CAP = 1 << 20
/**
 * Forwarded events are kept as bytes, up to this many per stream, and their text is read only if
 * someone asks for it: when the upstream reports usage (the usual case) nobody does. Past this
 * size the text is read as the events pass, so memory stays bounded by the text cap.
 */
const HELD_BYTES_LIMIT = 16 * 1024

/** Where the markers of the rarer events lie in a chunk (see pushWholeEvents). */
interface ChunkMarkers {
  /** Positions of objects held by `"usage"` keys: such events are read for their usage. */
  readonly usage: number[]
  /** Positions of objects held by `"error"` keys: such events are parsed. */
  readonly error: number[]
  /** Positions of `"choices": []` (Azure's content-filter chunks, the usage chunk). */
  readonly emptyChoices: number[]
  /** Positions of objects held by the provider's own error key (OpenAiStreamOptions.bodyError). */
  readonly bodyError: number[] | undefined
}

/** Positions of the markers that make an event need a closer look (see objectsHeldBy). */
function findMarkers(text: string, chat: boolean, bodyErrorKey: string | undefined): ChunkMarkers {
  const keys = bodyErrorKey === undefined ? OBJECT_KEYS_TO_READ : [...OBJECT_KEYS_TO_READ, bodyErrorKey]
  const [usage, error, bodyError] = objectsHeldBy(text, keys)
  const emptyChoices: number[] = []
  if (chat) {
    for (let index = text.indexOf(']'); index !== -1; index = text.indexOf(']', index + 1)) {
      const open = skipBackOverWhitespace(text, index)
      if (text.charCodeAt(open) === 0x5b && keyBefore(text, open, 'choices')) emptyChoices.push(index)
    }
  }
  return { usage: usage!, error: error!, emptyChoices, bodyError }
}

/** What a `choices` key holds: a non-empty array, `[]`, something else, or no such key. */
type ChoicesShape = 'items' | 'empty' | 'other' | 'absent'

/**
 * What the last `choices` key of the event `text[start, end)` holds. Its quotes cannot be those of
 * a string's contents (they would be escaped).
 */
function choicesShape(text: string, start: number, end: number): ChoicesShape {
  let key = text.lastIndexOf('"choices"', end - 1)
  while (key >= start) {
    let next = key + '"choices"'.length
    while (isJsonWhitespace(text.charCodeAt(next))) next += 1
    if (text.charCodeAt(next) === 0x3a) {
      next += 1
      while (isJsonWhitespace(text.charCodeAt(next))) next += 1
      if (text.charCodeAt(next) !== 0x5b) return 'other'
      next += 1
      while (isJsonWhitespace(text.charCodeAt(next))) next += 1
      return text.charCodeAt(next) === 0x5d ? 'empty' : 'items'
    }
    key = text.lastIndexOf('"choices"', key - 1)
  }
  return 'absent'
}

/** The last position within [start, end), if any. */
function lastWithin(positions: number[], start: number, end: number): number | undefined {
  for (let index = positions.length - 1; index >= 0; index--) {
    const position = positions[index]!
    if (position < end) return position >= start ? position : undefined
  }
  return undefined
}

/** True when some position lies in [start, end). */
const anyWithin = (positions: number[], start: number, end: number): boolean =>
  positions.some((position) => position >= start && position < end)

/** True when `chunk[start, end)` holds only JSON whitespace (the slow path's `data.trim() === ''`). */
function isBlank(chunk: Buffer, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    if (!isJsonWhitespace(chunk[index]!)) return false
  }
  return true
}

class OpenAiStreamTransformer implements StreamTransformer {
  usage: Usage | undefined
  upstreamCompleted = false
  answered = false
  keepAlives = 0
  streamError: UpstreamError | undefined
  private text = ''
  private textLength = 0
  /** Forwarded events not yet read for text: [buffer, start, end] per run of adjacent events. */
  private held: Array<[Buffer, number, number]> = []
  private heldBytes = 0
  private output = ''
  private doneSent = false
  /** The line parser, made when a chunk first needs it (most streams never do). */
  private parser: SseParser | undefined
  private readonly textKeys: readonly Buffer[]
  private readonly textCap: number

  constructor(private readonly options: OpenAiStreamOptions) {
    this.textKeys = options.mode === 'chat' ? CHAT_TEXT_KEYS : COMPLETIONS_TEXT_KEYS
    this.textCap = options.completionTextCap ?? DEFAULT_TEXT_CAP
  }

  /** The generated text so far (capped), read from the held events on first use. */
  get completionText(): string {
    this.readHeldText()
    return this.text
  }

  get completionTextLength(): number {
    this.readHeldText()
    return this.textLength
  }

  push(chunk: Buffer): string | Buffer {
    if (!this.parser || this.parser.idle) {
      const passed = this.pushWholeEvents(chunk)
      if (passed !== undefined) return passed
    }
    this.parser ??= new SseParser(
      (event) => this.handleEvent(event),
      (comment) => this.handleComment(comment),
    )
    this.parser.push(chunk)
    return this.takeOutput()
  }

  /**
   * The fast path for the usual shape of OpenAI-compatible streams: a chunk made only of whole
   * `data: <payload>\n\n` events (no CR, no other fields). The chunk is searched once, as a
   * latin1 string (one character per byte, so positions are byte offsets), for the few markers
   * that make an event need a closer look; every other event is judged without reading it. What
   * goes to the client is the chunk's own bytes: all of them when every event is forwarded, else
   * the front of the chunk, where the forwarded events were moved. Undefined for any other chunk
   * (the line parser takes it).
   */
  private pushWholeEvents(chunk: Buffer): Buffer | undefined {
    const text = chunk.toString('latin1')
    if (text.indexOf('\r') !== -1) return undefined
    const bounds: number[] = []
    let position = 0
    while (position < text.length) {
      if (!text.startsWith(DATA_PREFIX, position)) return undefined
      const lineEnd = text.indexOf('\n', position)
      if (lineEnd === -1 || text.charCodeAt(lineEnd + 1) !== 0x0a) return undefined
      bounds.push(position, lineEnd + 2)
      position = lineEnd + 2
    }
    const markers = findMarkers(text, this.options.mode === 'chat', this.options.bodyError?.key)
    // Forwarded events are moved up over dropped ones inside the chunk itself (each event is judged
    // before anything is moved over it), so dropping the usage chunk costs no new buffer: it cost
    // 1.7 kB of garbage and 0.3-0.5 us a stream (StreamTransformer.push owns the chunk).
    let kept = 0
    /** Forwarded events (where they were moved) that may only open the answer: see noteOpenings. */
    let openings: number[] | undefined
    for (let index = 0; index < bounds.length; index += 2) {
      const eventStart = bounds[index]!
      const eventEnd = bounds[index + 1]!
      const payloadStart = eventStart + DATA_PREFIX.length
      const payloadEnd = eventEnd - 2
      const done =
        payloadEnd - payloadStart === DONE_PAYLOAD.length && text.startsWith(DONE_PAYLOAD, payloadStart)
      // Nothing follows [DONE].
      const forward =
        !this.doneSent &&
        (done ? this.markDone() : this.judgeEvent(chunk, text, payloadStart, payloadEnd, markers))
      if (!forward) continue
      if (kept !== eventStart) chunk.copyWithin(kept, eventStart, eventEnd)
      if (!done) {
        this.hold(chunk, kept, kept + eventEnd - eventStart)
        if (!this.answered && !anyWithin(markers.error, payloadStart, payloadEnd)) {
          // An event without a role is an answer; one with a role is read below, unless an
          // answer comes in this chunk anyway (only the first events of a stream get here).
          const role = text.indexOf('"role"', payloadStart)
          if (role === -1 || role >= payloadEnd) this.answered = true
          else {
            openings ??= []
            openings.push(kept + DATA_PREFIX.length, kept + eventEnd - eventStart - 2)
          }
        }
      }
      kept += eventEnd - eventStart
    }
    if (!this.answered && openings) this.noteOpenings(chunk, openings)
    return kept === chunk.length ? chunk : chunk.subarray(0, kept)
  }

  /** Reads the forwarded events at `positions` (start, end pairs) for anything beyond an opening. */
  private noteOpenings(chunk: Buffer, positions: number[]): void {
    for (let index = 0; index < positions.length && !this.answered; index += 2) {
      if (!isOpeningOnly(chunk.toString('utf8', positions[index], positions[index + 1]))) this.answered = true
    }
  }

  private markDone(): boolean {
    this.upstreamCompleted = true
    this.doneSent = true
    return true
  }

  /**
   * Whether to forward the event whose payload is `chunk[start, end)` (not [DONE], and nothing
   * was sent after [DONE]). Blank events are dropped, and so are Azure's content-filter chunks
   * with no choices and no usage, because clients index choices[0]. An event
   * with an error object is recorded and forwarded; one with usage is read for it; the others
   * pass unread.
   */
  private judgeEvent(
    chunk: Buffer,
    text: string,
    start: number,
    end: number,
    markers: ChunkMarkers,
  ): boolean {
    if (markers.bodyError && this.readBodyError(chunk, start, end, markers.bodyError)) return false
    const hasError = anyWithin(markers.error, start, end)
    if (hasError) this.recordStreamError(chunk.toString('utf8', start, end))
    const usageAt = lastWithin(markers.usage, start, end)
    if (usageAt !== undefined) return this.recordUsage(chunk, usageAt, end, choicesShape(text, start, end))
    if (hasError) return true
    if (isBlank(chunk, start, end)) return false
    return !anyWithin(markers.emptyChoices, start, end)
  }

  /** True when the event holds the provider's own error object and it says the call failed. */
  private readBodyError(chunk: Buffer, start: number, end: number, positions: number[]): boolean {
    const open = lastWithin(positions, start, end)
    const error = open === undefined ? undefined : this.options.bodyError!.read(chunk, open, end)
    if (error) this.streamError = error
    return error !== undefined
  }

  /** Reads only the usage object; the event is forwarded unless it is the usage-only chunk we asked for. */
  private recordUsage(chunk: Buffer, usageAt: number, end: number, choices: ChoicesShape): boolean {
    const usage = readUsageObject(chunk, usageAt, end)
    // Unparsable chunks are forwarded as they are, like one-api does.
    if (usage === UNREADABLE) return true
    if (usage) this.usage = usage
    const usageOnly = usage !== undefined && choices !== 'items'
    return !(usageOnly && this.options.dropUsageChunk)
  }

  finish(complete = true): string {
    this.parser?.end()
    if (complete && !this.doneSent) {
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

  /**
   * A comment line (a provider's keep-alive while the request waits, OpenRouter's `: OPENROUTER
   * PROCESSING`): passed on as a comment, which clients ignore and proxies between them see as
   * traffic. It answers nothing.
   */
  private handleComment(comment: string): void {
    if (this.doneSent) return
    this.keepAlives += 1
    this.output += `:${comment}\n\n`
  }

  /** An event the line parser assembled: judged like a fast-path one, re-framed as `data: ...`. */
  private handleEvent(event: SseEvent): void {
    if (this.doneSent) return
    if (event.data === DONE_PAYLOAD) {
      this.markDone()
      this.output += DONE_EVENT
      return
    }
    const payload = Buffer.from(event.data)
    const text = payload.toString('latin1')
    const markers = findMarkers(text, this.options.mode === 'chat', this.options.bodyError?.key)
    if (this.judgeEvent(payload, text, 0, payload.length, markers)) {
      this.hold(payload, 0, payload.length)
      if (!this.answered && markers.error.length === 0) {
        this.answered = !event.data.includes('"role"') || !isOpeningOnly(event.data)
      }
      // An event of several data lines keeps them: each line goes out as a data line of its own.
      // A named event keeps its name (a provider's `event: error` means something to its clients).
      const name = event.event === undefined ? '' : `event: ${event.event}\n`
      this.output += `${name}data: ${event.data.replaceAll('\n', '\ndata: ')}\n\n`
    }
  }

  /** An error object the upstream sent inside the stream. */
  private recordStreamError(data: string): void {
    let event: unknown
    try {
      event = JSON.parse(data)
    } catch {
      return // unparsable events are forwarded as they are, like one-api does
    }
    if (isRecord(event) && isRecord(event.error)) this.streamError = mapUpstreamError(200, data)
  }

  /**
   * Keeps a forwarded event for its text; adjacent events of one chunk are kept as one run. Once
   * HELD_BYTES_LIMIT would be passed, what is held is read first, so the text keeps its order.
   */
  private hold(buffer: Buffer, start: number, end: number): void {
    if (this.heldBytes + (end - start) > HELD_BYTES_LIMIT) {
      this.readHeldText()
      this.appendText(stringValuesOf(buffer, start, end, this.textKeys))
      return
    }
    const last = this.held.at(-1)
    if (last && last[0] === buffer && last[2] === start) last[2] = end
    else this.held.push([buffer, start, end])
    this.heldBytes += end - start
  }

  private readHeldText(): void {
    for (const [buffer, start, end] of this.held) {
      this.appendText(stringValuesOf(buffer, start, end, this.textKeys))
    }
    this.held = []
    this.heldBytes = 0
  }

  private appendText(pieces: string[]): void {
    for (const piece of pieces) {
      this.textLength += piece.length
      if (this.text.length < this.textCap) {
        this.text += piece.slice(0, this.textCap - this.text.length)
      }
    }
  }
}

export const createOpenAiStreamTransformer = (options: OpenAiStreamOptions): StreamTransformer =>
  new OpenAiStreamTransformer(options)
