/**
 * Incremental Server-Sent Events parser over raw Buffers.
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 *
 * Chunks may split anywhere (inside a line, inside a multi-byte UTF-8 character, between the CR
 * and LF of a CRLF). Lines are cut on bytes (0x0A / 0x0D never occur inside a UTF-8 sequence) and
 * each complete line is decoded once, so split characters are always reassembled correctly. Memory
 * is the current line and the current event's data only; line length is unlimited (Go one-api's
 * bufio.Scanner stopped at 64 KiB).
 */

export interface SseEvent {
  /** The event's data lines joined with '\n' (as the SSE standard says), without the `data:` prefix. */
  readonly data: string
  /** The `event:` field, when the stream names its events. */
  readonly event: string | undefined
}

const LINE_FEED = 0x0a
const CARRIAGE_RETURN = 0x0d
const BYTE_ORDER_MARK = 0xfeff

/** True for a data payload that cannot continue on the next line: one JSON object or `[DONE]`. */
const isCompletePayload = (data: string): boolean =>
  data === '[DONE]' || (data.startsWith('{') && data.endsWith('}'))

export class SseParser {
  /** Bytes of the current, not yet terminated line. */
  private partialLine: Buffer[] = []
  /** The previous chunk ended with CR: a LF at the start of the next chunk belongs to it. */
  private afterCarriageReturn = false
  private data: string | undefined
  private eventName: string | undefined
  /** The event's data so far came on one line. */
  private oneDataLine = false
  /** No line read yet: a byte order mark opening the stream is not part of its first line. */
  private atStart = true

  /** `onComment`: a comment line's text after its ':' (keep-alive pings some providers send). */
  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onComment?: (text: string) => void,
  ) {}

  /** True between events: no partial line, no event data or name waiting for its blank line. */
  get idle(): boolean {
    return (
      this.partialLine.length === 0 &&
      !this.afterCarriageReturn &&
      this.data === undefined &&
      this.eventName === undefined
    )
  }

  push(chunk: Buffer): void {
    let start = 0
    if (this.afterCarriageReturn && chunk.length > 0) {
      this.afterCarriageReturn = false
      if (chunk[0] === LINE_FEED) start = 1
    }
    let nextCarriageReturn = chunk.indexOf(CARRIAGE_RETURN, start)
    while (start < chunk.length) {
      if (nextCarriageReturn !== -1 && nextCarriageReturn < start) {
        nextCarriageReturn = chunk.indexOf(CARRIAGE_RETURN, start)
      }
      const nextLineFeed = chunk.indexOf(LINE_FEED, start)
      let end: number
      if (nextLineFeed === -1) end = nextCarriageReturn
      else if (nextCarriageReturn === -1) end = nextLineFeed
      else end = Math.min(nextLineFeed, nextCarriageReturn)
      if (end === -1) {
        this.partialLine.push(chunk.subarray(start))
        return
      }
      this.takeLine(chunk, start, end)
      start = end + 1
      if (chunk[end] === CARRIAGE_RETURN) {
        if (start === chunk.length) this.afterCarriageReturn = true
        else if (chunk[start] === LINE_FEED) start += 1
      }
    }
  }

  /**
   * Ends the stream. A last event that no blank line ended is dispatched only when its data is
   * whole (one JSON object on one line, or `[DONE]`): an upstream that closes without the last blank
   * line still delivers its last event, while an event cut in the middle (a connection that broke
   * mid-JSON) is discarded, as the SSE standard discards every unfinished event, so a client never
   * receives half of one.
   */
  end(): void {
    if (this.partialLine.length > 0) {
      const line = Buffer.concat(this.partialLine).toString('utf8')
      this.partialLine = []
      this.processLine(line)
    }
    if (this.data !== undefined && !(this.oneDataLine && isCompletePayload(this.data))) {
      this.data = undefined
      this.eventName = undefined
    }
    this.dispatch()
  }

  private takeLine(chunk: Buffer, start: number, end: number): void {
    if (this.partialLine.length === 0) {
      this.processLine(chunk.toString('utf8', start, end))
      return
    }
    this.partialLine.push(chunk.subarray(start, end))
    const line = Buffer.concat(this.partialLine).toString('utf8')
    this.partialLine = []
    this.processLine(line)
  }

  private processLine(line: string): void {
    if (this.atStart) {
      this.atStart = false
      if (line.charCodeAt(0) === BYTE_ORDER_MARK) line = line.slice(1)
    }
    if (line === '') {
      this.dispatch()
      return
    }
    if (line.charCodeAt(0) === 0x3a) {
      // ':' starts a comment (keep-alive pings).
      this.onComment?.(line.slice(1))
      return
    }
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 0x20) value = value.slice(1)
    if (field === 'data') {
      if (this.data === undefined) {
        this.data = value
        this.oneDataLine = true
      } else if (this.oneDataLine && isCompletePayload(this.data)) {
        // Lenient: some OpenAI-compatible servers omit the blank line between events. A JSON
        // object on one line cannot continue on the next, so it is dispatched on its own (an
        // event of several lines is joined as the standard says, whatever its lines look like).
        this.dispatch()
        this.data = value
      } else {
        this.data = `${this.data}\n${value}`
        this.oneDataLine = false
      }
    } else if (field === 'event') {
      // An empty name is the default type, as if none were given.
      this.eventName = value === '' ? undefined : value
    }
    // `id` and `retry` do not matter to a relay; unknown fields are ignored as the SSE standard says.
  }

  private dispatch(): void {
    const data = this.data
    const event = this.eventName
    this.data = undefined
    this.eventName = undefined
    if (data !== undefined) this.onEvent({ data, event })
  }
}
