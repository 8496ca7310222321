import type { Socket } from 'node:net'
import { ResponseParseError } from './response-head.ts'
import { ResponseParser, type ResponseSink } from './response-parser.ts'

/**
 * How a call's answer is handed over: the callbacks of undici's dispatcher handlers, so that one
 * handler type serves every upstream call (https://undici.nodejs.org/#/docs/api/Dispatcher).
 */
export interface CallHandler {
  /** The call is on its way; `abort` ends it (the handler then hears onError with the reason). */
  onConnect(abort: (reason?: Error) => void): void
  /** The answer's head. Returning false pauses the upstream until `resume` is called. */
  onHeaders(status: number, rawHeaders: string[], resume: () => void): boolean
  /** A piece of the body. Returning false pauses the upstream until `resume` is called. */
  onData(chunk: Buffer): boolean
  onComplete(trailers: null): void
  onError(error: Error): void
}

/** One request as a connection writes it. */
export interface OutgoingRequest {
  method: string
  /** The request head, up to and including its blank line (request-head.ts). */
  head: string
  body: Buffer | undefined
}

/** What a pool learns from its connections. */
export interface ConnectionOwner {
  /** The call is over; the connection can carry another, or is closed (`reusable` false). */
  released(connection: UpstreamConnection, reusable: boolean): void
}

/** A transport failure, with a code the relay's error mapping knows (transportError). */
export class UpstreamSocketError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
  }
}

/** Bodies up to this size are written with their head as one string (see send). */
const ONE_STRING_BODY_BYTES = 64 * 1024
/** An upstream's announced keep-alive time is not used to its last seconds (as undici does). */
const KEEP_ALIVE_MARGIN_MS = 2_000

/**
 * One call on a connection. Its abort and resume functions stay bound to it: an exchange that
 * aborts or resumes late (its client left after the answer) cannot touch the connection's next call.
 */
class Call implements ResponseSink {
  readonly parser: ResponseParser
  /** Bytes of the answer have arrived. */
  answered = false
  /** The request was written (an abort before it leaves the connection as it was). */
  sent = false
  timer: NodeJS.Timeout | undefined

  constructor(
    private readonly connection: UpstreamConnection,
    method: string,
    readonly handler: CallHandler,
  ) {
    this.parser = new ResponseParser(this, method)
  }

  readonly abort = (reason?: Error): void => {
    this.connection.fail(this, reason ?? new UpstreamSocketError('the call was aborted', 'ABORT_ERR'))
  }

  readonly resume = (): void => {
    const parser = this.parser
    if (!parser.isPaused || !this.connection.isCurrent(this)) return
    // A pause does not count against RELAY_TIMEOUT: the wait starts again now (as undici's).
    this.timer?.refresh()
    try {
      parser.resume()
    } catch (error) {
      this.connection.parseFailed(this, error)
      return
    }
    // What was pending may have ended the call: the connection resumed its socket then.
    if (!parser.isPaused && this.connection.isCurrent(this)) this.connection.socket.resume()
  }

  onHead(status: number, rawHeaders: string[]): boolean {
    this.connection.headReceived(this)
    let more: boolean
    try {
      more = this.handler.onHeaders(status, rawHeaders, this.resume)
    } catch (error) {
      this.connection.fail(this, error as Error)
      return false
    }
    if (!more) this.pauseSocket()
    return more
  }

  onBody(piece: Buffer): boolean {
    this.timer?.refresh()
    let more: boolean
    try {
      more = this.handler.onData(piece)
    } catch (error) {
      this.connection.fail(this, error as Error)
      return false
    }
    if (!more) this.pauseSocket()
    return more
  }

  onEnd(reusable: boolean): void {
    this.connection.ended(this, reusable)
  }

  private pauseSocket(): void {
    if (this.connection.isCurrent(this)) this.connection.socket.pause()
  }
}

/**
 * One keep-alive connection to an upstream origin, carrying one call at a time. The socket's
 * chunks go to the call's parser; back-pressure from the handler pauses the socket. A connection
 * whose answer could not be read to its end, or that received bytes nobody asked for, is closed.
 */
export class UpstreamConnection {
  private call: Call | undefined
  private socketError: Error | undefined
  /** When the connection was last released to the idle list (ms, performance clock). */
  idleSince = 0
  /** How long it may stay idle: the upstream's Keep-Alive hint less a margin, or the default. */
  keepAliveMs: number
  closed = false

  constructor(
    readonly socket: Socket,
    private readonly owner: ConnectionOwner,
    private readonly timeoutMs: number,
    defaultKeepAliveMs: number,
  ) {
    this.keepAliveMs = defaultKeepAliveMs
    socket.on('data', (chunk: Buffer) => this.onSocketData(chunk))
    socket.on('error', (error: Error) => {
      this.socketError ??= error
    })
    socket.on('close', () => this.onSocketClose())
    // A tunnel through a proxy comes paused (proxy-tunnel.ts).
    socket.resume()
  }

  /** Whether an idle connection can take a call: its socket still open both ways. */
  get usable(): boolean {
    const socket = this.socket
    return !this.closed && !socket.destroyed && socket.writable && !socket.readableEnded
  }

  isCurrent(call: Call): boolean {
    return this.call === call
  }

  /** Sends a request; the answer goes to `handler`. The connection must be idle. */
  send(request: OutgoingRequest, handler: CallHandler): void {
    const call = new Call(this, request.method, handler)
    this.call = call
    handler.onConnect(call.abort)
    if (this.call !== call) return
    call.sent = true
    if (this.timeoutMs > 0) this.startTimer(call, 'headers')
    const socket = this.socket
    const body = request.body
    if (!body || body.length === 0) {
      socket.write(request.head, 'latin1')
    } else if (body.length <= ONE_STRING_BODY_BYTES) {
      // Head and body as one latin1 string (a byte a character, so the body's bytes pass as they
      // are): one plain write, cheaper in Node than the corked pair below.
      socket.write(request.head + body.toString('latin1'), 'latin1')
    } else {
      // The head and the body leave in one system call.
      socket.cork()
      socket.write(request.head, 'latin1')
      socket.write(body)
      socket.uncork()
    }
  }

  headReceived(call: Call): void {
    const hint = call.parser.keepAliveHintMs
    if (hint > 0) this.keepAliveMs = Math.min(this.keepAliveMs, hint - KEEP_ALIVE_MARGIN_MS)
    if (call.timer) this.startTimer(call, 'body')
  }

  ended(call: Call, reusable: boolean): void {
    if (this.call !== call) return
    this.finish(call)
    // The socket may have been paused for this call (its handler was behind): the next call
    // must find it reading.
    if (reusable && this.socket.isPaused()) this.socket.resume()
    if (!reusable) this.close()
    this.owner.released(this, reusable && !this.closed)
    try {
      call.handler.onComplete(null)
    } catch (error) {
      // The handler failed on the answer's end: the call fails, as undici fails it.
      call.handler.onError(error as Error)
    }
  }

  /** A response the parser refused: the call fails, and the connection is closed. */
  parseFailed(call: Call, error: unknown): void {
    if (!(error instanceof ResponseParseError)) throw error
    this.fail(call, new UpstreamSocketError(`invalid upstream answer: ${error.message}`, error.code))
  }

  /** Ends the call in an error: its handler hears it once, and the connection is closed. */
  fail(call: Call, error: Error): void {
    if (this.call !== call) return
    this.finish(call)
    // Aborted before anything was written (its client left while it waited for a connection):
    // the connection is as good as it was, and goes to the next call.
    const untouched = !call.sent && this.usable
    if (!untouched) this.close()
    call.handler.onError(error)
    this.owner.released(this, untouched)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.socket.destroy()
  }

  /** Closes the connection, its call (if any) failing with `error`. */
  closeWith(error: Error): void {
    if (this.call) this.fail(this.call, error)
    else this.close()
  }

  private finish(call: Call): void {
    call.parser.stop()
    this.call = undefined
    if (call.timer) clearTimeout(call.timer)
  }

  private onSocketData(chunk: Buffer): void {
    const call = this.call
    if (!call) {
      // Bytes nobody asked for, on an idle connection: its framing cannot be trusted any more.
      this.close()
      return
    }
    call.answered = true
    try {
      call.parser.feed(chunk)
    } catch (error) {
      this.parseFailed(call, error)
    }
  }

  private onSocketClose(): void {
    this.closed = true
    const call = this.call
    if (!call) {
      // An idle connection the upstream closed, or one this side closed after its call.
      this.owner.released(this, false)
      return
    }
    // An answer framed by the connection's close is complete now.
    if (call.parser.close()) return
    this.fail(
      call,
      this.socketError ??
        new UpstreamSocketError(
          call.answered
            ? 'the upstream closed the connection mid-answer'
            : 'the upstream closed the connection',
          'UND_ERR_SOCKET',
        ),
    )
  }

  private startTimer(call: Call, phase: 'headers' | 'body'): void {
    if (call.timer) clearTimeout(call.timer)
    const code = phase === 'headers' ? 'UND_ERR_HEADERS_TIMEOUT' : 'UND_ERR_BODY_TIMEOUT'
    call.timer = setTimeout(() => {
      // Paused by its handler, the call is not the upstream's delay: the wait starts on resume.
      if (call.parser.isPaused) return
      this.fail(call, new UpstreamSocketError(`no upstream ${phase} within ${this.timeoutMs} ms`, code))
    }, this.timeoutMs)
  }
}
