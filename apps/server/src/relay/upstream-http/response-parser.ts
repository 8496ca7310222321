/**
 * An HTTP/1.1 response parser for the relay's upstream client (RFC 9112): the head is read as
 * latin1 text once it is whole, the body is framed by Content-Length, by chunked transfer coding,
 * or by the connection's close. It is fed the socket's chunks as they come and calls its sink with
 * the head, each piece of body, and the end; it never copies body bytes (pieces are views of the
 * chunks fed). One response at a time: the client never pipelines.
 */

/** Where the parser's results go. */
export interface ResponseSink {
  /** The final head (interim 1xx heads are skipped). `rawHeaders`: name, value, name, value... */
  onHead(status: number, rawHeaders: string[]): void
  /** A piece of body. Returns false to stop feeding until `resume()` is called. */
  onBody(piece: Buffer): boolean
  /** The response is complete; `reusable` is false when the connection must be closed after it. */
  onEnd(reusable: boolean): void
}

/** A response the parser cannot read: the connection must be closed. */
export class ResponseParseError extends Error {
  readonly code = 'UPSTREAM_HTTP_PARSE_ERROR'
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
          break
        case State.FixedBody: {
          const take = Math.min(this.remaining, chunk.length - offset)
          this.remaining -= take
          const piece = chunk.subarray(offset, offset + take)
          offset += take
          if (this.remaining === 0) {
            this.sink.onBody(piece)
            this.finish(this.keepAlive)
          } else if (!this.sink.onBody(piece)) {
            this.pause(chunk, offset)
            return
          }
          break
        }
        case State.ChunkLine:
          offset = this.parseChunkLine(chunk, offset)
          break
        case State.ChunkData: {
          const take = Math.min(this.remaining, chunk.length - offset)
          this.remaining -= take
          const piece = chunk.subarray(offset, offset + take)
          offset += take
          if (this.remaining === 0) this.state = State.ChunkDataEnd
          if (!this.sink.onBody(piece)) {
            this.pause(chunk, offset)
            return
          }
          break
        }
        case State.ChunkDataEnd:
          offset = this.parseChunkDataEnd(chunk, offset)
          break
        case State.Trailers:
          offset = this.parseTrailers(chunk, offset)
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
      this.partial = start === 0 ? buffer : buffer.subarray(start)
      return chunk.length
    }
    if (end - start > MAX_HEAD_BYTES) throw new ResponseParseError('response head too large')
    this.readHead(buffer.toString('latin1', start, end))
    // Offset in `chunk` of the byte after the blank line.
    return partialLength > 0 ? end + 4 - partialLength + offset : end + 4
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n')
    const statusLine = lines[0]!
    // "HTTP/1.1 200 OK": the version, a space, three digits, then the (ignored) reason.
    if (!statusLine.startsWith('HTTP/1.') || statusLine.length < 12 || statusLine[8] !== ' ') {
      throw new ResponseParseError('malformed status line')
    }
    const status = Number(statusLine.slice(9, 12))
    if (!Number.isInteger(status) || status < 100 || status > 999) {
      throw new ResponseParseError('malformed status line')
    }
    const http10 = statusLine[7] === '0'
    const rawHeaders: string[] = []
    let contentLength = -1
    let chunked = false
    let connection = ''
    for (let index = 1; index < lines.length; index++) {
      const line = lines[index]!
      const colon = line.indexOf(':')
      if (colon <= 0) throw new ResponseParseError('malformed header line')
      const name = line.slice(0, colon)
      const value = line.slice(colon + 1).trim()
      rawHeaders.push(name, value)
      switch (name.length) {
        case 14:
          if (name.toLowerCase() === 'content-length') {
            if (!/^\d{1,15}$/.test(value)) throw new ResponseParseError('invalid Content-Length')
            const length = Number(value)
            if (contentLength !== -1 && contentLength !== length)
              throw new ResponseParseError('conflicting Content-Length headers')
            contentLength = length
          }
          break
        case 17:
          if (name.toLowerCase() === 'transfer-encoding') {
            // Chunked must be the last coding; anything else is read until the connection closes.
            chunked = /(^|,)\s*chunked\s*$/i.test(value)
            if (!chunked) contentLength = -2
          }
          break
        case 10: {
          const lower = name.toLowerCase()
          if (lower === 'connection') connection += `${value.toLowerCase()},`
          else if (lower === 'keep-alive') {
            const timeout = /timeout\s*=\s*(\d+)/i.exec(value)
            if (timeout) this.keepAliveHintMs = Number(timeout[1]) * 1000
          }
          break
        }
      }
    }
    // Interim answers (100 Continue, 103 Early Hints) precede the real one; 101 is not asked for.
    if (status < 200 && status !== 101) {
      this.keepAliveHintMs = 0
      return
    }
    this.keepAlive = http10 ? connection.includes('keep-alive') : !connection.includes('close')
    this.sink.onHead(status, rawHeaders)
    if (this.stopped) return
    if (this.noBody || status === 204 || status === 304) {
      this.finish(this.keepAlive)
      return
    }
    if (chunked) {
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

  /** Reads a line ending in CRLF from `chunk` at `offset`; undefined (kept as partial) if not whole. */
  private readLine(chunk: Buffer, offset: number): { line: string; next: number } | undefined {
    const partialLength = this.partial?.length ?? 0
    const { buffer, start } = this.joinPartial(chunk, offset)
    const end = buffer.indexOf(LF, start)
    if (end === -1) {
      if (buffer.length - start > MAX_CHUNK_LINE_BYTES) throw new ResponseParseError('chunk line too long')
      this.partial = start === 0 ? buffer : buffer.subarray(start)
      return undefined
    }
    if (end === start || buffer[end - 1] !== CR) throw new ResponseParseError('malformed chunk line')
    if (end - start > MAX_CHUNK_LINE_BYTES) throw new ResponseParseError('chunk line too long')
    const line = buffer.toString('latin1', start, end - 1)
    const next = partialLength > 0 ? end + 1 - partialLength + offset : end + 1
    return { line, next }
  }

  private parseChunkLine(chunk: Buffer, offset: number): number {
    const read = this.readLine(chunk, offset)
    if (!read) return chunk.length
    const semicolon = read.line.indexOf(';')
    const hex = (semicolon === -1 ? read.line : read.line.slice(0, semicolon)).trim()
    if (!/^[0-9a-fA-F]{1,13}$/.test(hex)) throw new ResponseParseError('invalid chunk size')
    const size = Number.parseInt(hex, 16)
    if (size === 0) {
      this.state = State.Trailers
    } else {
      this.remaining = size
      this.state = State.ChunkData
    }
    return read.next
  }

  private parseChunkDataEnd(chunk: Buffer, offset: number): number {
    const read = this.readLine(chunk, offset)
    if (!read) return chunk.length
    if (read.line !== '') throw new ResponseParseError('chunk data longer than its size')
    this.state = State.ChunkLine
    return read.next
  }

  /** Trailer fields after the last chunk are read and dropped, up to the blank line. */
  private parseTrailers(chunk: Buffer, offset: number): number {
    const read = this.readLine(chunk, offset)
    if (!read) return chunk.length
    if (read.line === '') this.finish(this.keepAlive)
    return read.next
  }
}
