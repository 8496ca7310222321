/**
 * An HTTP/1.1 response parser for the relay's upstream client (RFC 9112): the head is read as
 * latin1 text once it is whole, the body is framed by Content-Length, by chunked transfer coding,
 * or by the connection's close. It is fed the socket's chunks as they come and calls its sink with
 * the head, each piece of body, and the end; it never copies body bytes (pieces are views of the
 * chunks fed). One response at a time: the client never pipelines.
 */

import { parseHead, ResponseParseError } from './response-head.ts'

/** Where the parser's results go. */
export interface ResponseSink {
  /**
   * The final head (interim 1xx heads are skipped). `rawHeaders`: name, value, name, value...
   * Returns false to stop feeding until `resume()` is called.
   */
  onHead(status: number, rawHeaders: string[]): boolean
  /** A piece of body. Returns false to stop feeding until `resume()` is called. */
  onBody(piece: Buffer): boolean
  /** The response is complete; `reusable` is false when the connection must be closed after it. */
  onEnd(reusable: boolean): void
}

/** Larger heads are refused, as undici and Node's own parser refuse them (their default). */
export const MAX_HEAD_BYTES = 16 * 1024
/** A chunk-size line (hex size and extensions) longer than this is refused. */
const MAX_CHUNK_LINE_BYTES = 4 * 1024

enum State {
  Head,
  FixedBody,
  ChunkLine,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
  Done,
}

const CR = 0x0d
const LF = 0x0a
const SPACE = 0x20

const isWhitespace = (code: number): boolean => code === SPACE || code === 0x09

/** The value of a hex digit's byte, or -1. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30
  const letter = byte | 0x20
  return letter >= 0x61 && letter <= 0x66 ? letter - 0x61 + 10 : -1
}

const invalidChunkSize = () => new ResponseParseError('invalid chunk size')

export class ResponseParser {
  private state = State.Head
  /** Head or chunk-line bytes kept from earlier chunks until their line ends. */
  private partial: Buffer | undefined
  private remaining = 0
  private keepAlive = true
  /** The sink asked for a pause; `pending` is what was fed but not yet parsed. */
  private paused = false
  private pending: Buffer | undefined
  /** Bytes that followed the end of the response (a misbehaving upstream): not reusable. */
  private trailingBytes = false
  /** Set once the response has ended; reported to the sink when the chunk is parsed. */
  private ended: { reusable: boolean } | undefined
  private reported = false
  /** The owner stopped reading (the call was aborted): nothing more goes to the sink. */
  private stopped = false
  /** The sink asked for a pause at the head: parsing stops after it. */
  private pauseAfterHead = false
  /** Whether the request was a HEAD (no body follows, whatever the head says). */
  private readonly noBody: boolean

  /** Keep-alive timeout the upstream announced (`Keep-Alive: timeout=N`), in ms; 0 when none. */
  keepAliveHintMs = 0

  constructor(
    private readonly sink: ResponseSink,
    method: string,
  ) {
    this.noBody = method === 'HEAD'
  }

  /** Whether the response has ended (the sink's onEnd was called). */
  get done(): boolean {
    return this.state === State.Done
  }

  /** Whether a response that ends now, with the connection's close, is complete. */
  get endsWithClose(): boolean {
    return this.state === State.UntilClose
  }

  get isPaused(): boolean {
    return this.paused
  }

  /** Parses a chunk from the socket. Throws ResponseParseError on a malformed response. */
  feed(chunk: Buffer): void {
    if (this.paused) {
      this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
      return
    }
    this.parse(chunk)
  }

  /** Continues after the sink returned false; parses what was fed meanwhile. */
  resume(): void {
    if (!this.paused) return
    this.paused = false
    const pending = this.pending
    this.pending = undefined
    if (pending && pending.length > 0) this.parse(pending)
  }

  /** The connection closed: completes a response framed by the close. False if one was cut. */
  close(): boolean {
    if (this.state === State.UntilClose && !this.paused) {
      this.finish(false)
      this.reportEnd()
      return true
    }
    return this.state === State.Done
  }

  /** Nothing more goes to the sink (the call was aborted). */
  stop(): void {
    this.stopped = true
  }

  private parse(chunk: Buffer): void {
    this.parseChunk(chunk)
    this.reportEnd()
  }

  private reportEnd(): void {
    if (!this.ended || this.reported || this.stopped) return
    this.reported = true
    this.sink.onEnd(this.ended.reusable && !this.trailingBytes)
  }

  private parseChunk(chunk: Buffer): void {
    let offset = 0
    while (offset < chunk.length && !this.stopped) {
      switch (this.state) {
        case State.Head:
          offset = this.parseHead(chunk, offset)
          if (this.pauseAfterHead) {
            this.pauseAfterHead = false
            this.pause(chunk, offset)
            return
          }
          break
        case State.FixedBody:
        case State.ChunkData: {
          const take = Math.min(this.remaining, chunk.length - offset)
          this.remaining -= take
          const piece = chunk.subarray(offset, offset + take)
          offset += take
          const more = this.sink.onBody(piece)
          if (this.remaining === 0) {
            // A fixed body ends with its last byte (a pause asked for then has nothing to hold
            // back); a chunk's data is followed by its CRLF.
            if (this.state === State.FixedBody) {
              this.finish(this.keepAlive)
              break
            }
            this.state = State.ChunkDataEnd
          }
          if (!more) {
            this.pause(chunk, offset)
            return
          }
          break
        }
        case State.ChunkLine:
        case State.ChunkDataEnd:
        case State.Trailers:
          offset = this.readLine(chunk, offset)
          break
        case State.UntilClose:
          if (!this.sink.onBody(offset === 0 ? chunk : chunk.subarray(offset))) {
            offset = chunk.length
            this.pause(chunk, offset)
            return
          }
          offset = chunk.length
          break
        case State.Done:
          // More than one response for one request: the connection cannot be trusted any more.
          this.trailingBytes = true
          return
      }
    }
  }

  private pause(chunk: Buffer, offset: number): void {
    if (this.state === State.Done) return
    this.paused = true
    if (offset < chunk.length) this.pending = chunk.subarray(offset)
  }

  private finish(reusable: boolean): void {
    this.state = State.Done
    this.ended = { reusable }
  }

  private joinPartial(chunk: Buffer, offset: number): { buffer: Buffer; start: number } {
    if (!this.partial) return { buffer: chunk, start: offset }
    const buffer = Buffer.concat([this.partial, chunk.subarray(offset)])
    this.partial = undefined
    return { buffer, start: 0 }
  }

  /** Returns the offset in `chunk` after the head, or chunk.length when the head is not whole yet. */
  private parseHead(chunk: Buffer, offset: number): number {
    const partialLength = this.partial?.length ?? 0
    const { buffer, start } = this.joinPartial(chunk, offset)
    const end = buffer.indexOf('\r\n\r\n', start, 'latin1')
    if (end === -1) {
      if (buffer.length - start > MAX_HEAD_BYTES) throw new ResponseParseError('response head too large')
      // A head ended by bare LFs would never end here: refused at once, as llhttp refuses it.
      if (buffer.indexOf('\n\n', start, 'latin1') !== -1)
        throw new ResponseParseError('line ending without CR')
      this.partial = start === 0 ? buffer : buffer.subarray(start)
      return chunk.length
    }
    if (end - start > MAX_HEAD_BYTES) throw new ResponseParseError('response head too large')
    this.readHead(buffer.toString('latin1', start, end))
    // Offset in `chunk` of the byte after the blank line.
    return partialLength > 0 ? end + 4 - partialLength + offset : end + 4
  }

  /** The head's text (from parseHead) sets the framing of what follows. */
  private readHead(text: string): void {
    const head = parseHead(text)
    // Interim answers (100 Continue, 103 Early Hints) precede the real one; 101 is not asked for.
    if (head.status < 200 && head.status !== 101) return
    this.keepAliveHintMs = head.keepAliveHintMs
    this.keepAlive = head.keepAlive
    if (!this.sink.onHead(head.status, head.rawHeaders)) this.pauseAfterHead = true
    if (this.stopped) return
    const { status, contentLength } = head
    if (this.noBody || status === 204 || status === 304) {
      this.finish(this.keepAlive)
      return
    }
    if (head.chunked) {
      // Both framings given: chunked wins, and the connection is not reused (RFC 9112 §6.3).
      if (contentLength >= 0) this.keepAlive = false
      this.state = State.ChunkLine
    } else if (contentLength >= 0) {
      if (contentLength === 0) {
        this.finish(this.keepAlive)
        return
      }
      this.remaining = contentLength
      this.state = State.FixedBody
    } else {
      this.keepAlive = false
      this.state = State.UntilClose
    }
  }

  /**
   * Reads the line the state expects at `chunk[offset]` (readLineAt: the offset after its LF, or -1
   * when the line is not whole yet: its start is then kept, as `partial`, until more comes).
   * The usual line lies whole in one chunk and is read in place, without a copy.
   */
  private readLine(chunk: Buffer, offset: number): number {
    const partial = this.partial
    if (partial) {
      const joined = Buffer.concat([partial, chunk.subarray(offset)])
      this.partial = undefined
      const next = this.readLineAt(joined, 0)
      if (next !== -1) return next - partial.length + offset
      this.keepPartial(joined, 0)
      return chunk.length
    }
    const next = this.readLineAt(chunk, offset)
    if (next !== -1) return next
    this.keepPartial(chunk, offset)
    return chunk.length
  }

  /** The line the state expects at `buffer[start]`: see readLine. */
  private readLineAt(buffer: Buffer, start: number): number {
    if (this.state === State.ChunkLine) return this.readChunkSize(buffer, start)
    if (this.state === State.ChunkDataEnd) return this.readChunkDataEnd(buffer, start)
    return this.readTrailerLine(buffer, start)
  }

  private keepPartial(buffer: Buffer, start: number): void {
    if (buffer.length - start > MAX_CHUNK_LINE_BYTES) throw new ResponseParseError('chunk line too long')
    this.partial = start === 0 ? buffer : buffer.subarray(start)
  }

  /** `1a;name=value\r\n`: the size in hex, extensions (ignored), CRLF (RFC 9112 §7.1). */
  private readChunkSize(buffer: Buffer, start: number): number {
    let size = 0
    let index = start
    for (; index < buffer.length; index++) {
      const value = hexValue(buffer[index]!)
      if (value === -1) break
      size = size * 16 + value
    }
    const digits = index - start
    // Whitespace may come before the extensions (RFC 9112 §7.1.1), then `;` or the line's end.
    while (index < buffer.length && isWhitespace(buffer[index]!)) index += 1
    const end = buffer.indexOf(LF, index)
    if (end === -1) {
      if (index < buffer.length && buffer[index] !== 0x3b && buffer[index] !== CR) throw invalidChunkSize()
      return -1
    }
    const lineEnd = end - 1
    if (digits === 0 || digits > 13 || buffer[lineEnd] !== CR) throw invalidChunkSize()
    if (index !== lineEnd && (buffer[index] !== 0x3b || buffer.indexOf(CR, index) !== lineEnd)) {
      throw invalidChunkSize()
    }
    if (size === 0) {
      this.state = State.Trailers
    } else {
      this.remaining = size
      this.state = State.ChunkData
    }
    return end + 1
  }

  /** The CRLF that closes a chunk's data. */
  private readChunkDataEnd(buffer: Buffer, start: number): number {
    if (buffer[start] !== CR) throw new ResponseParseError('chunk data longer than its size')
    if (start + 1 >= buffer.length) return -1
    if (buffer[start + 1] !== LF) throw new ResponseParseError('chunk data longer than its size')
    this.state = State.ChunkLine
    return start + 2
  }

  /** Trailer fields after the last chunk are read and dropped, up to the blank line. */
  private readTrailerLine(buffer: Buffer, start: number): number {
    const end = buffer.indexOf(LF, start)
    if (end === -1) return -1
    if (end === start || buffer[end - 1] !== CR) throw new ResponseParseError('malformed trailer line')
    if (end === start + 1) this.finish(this.keepAlive)
    return end + 1
  }
}
