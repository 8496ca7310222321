import type { Agent } from 'node:http'
import WebSocket from 'ws'
import type { ExchangeLimits, StreamSink, UpstreamAnswer } from './upstream-exchange.ts'
import { AnswerTooLarge, StreamTooLong } from './upstream-exchange.ts'

/** A call to an upstream spoken to over a WebSocket (see UpstreamRequest.webSocket). */
export interface WebSocketCall {
  url: string
  body?: Buffer | string
  isLast: (message: string) => boolean
  /** The agent that opens the connection (RELAY_PROXY's tunnel); Node's default when absent. */
  agent?: Agent
}

/** How long the opening handshake may take (one-api's 5 s). */
const HANDSHAKE_TIMEOUT_MS = 5_000
/** What a refused handshake's HTTP answer may hold. */
const REFUSAL_MAX_BYTES = 64 * 1024
const LINE_FEED = Buffer.from('\n')

/**
 * One upstream call over a WebSocket (the `ws` package): the first message is the request; each
 * message received goes on followed by a line feed, to the sink (a stream request) or gathered;
 * the call ends at the message the adaptor says is the last, or when the upstream closes. A
 * refused handshake is answered like an HTTP error (its status and body), for the adaptor to map.
 * Time limits: the handshake's, then RELAY_TIMEOUT between two messages, and
 * RELAY_MAX_STREAM_SECONDS in all for a stream.
 */
export class WebSocketExchange {
  readonly done: Promise<UpstreamAnswer>
  private resolve!: (answer: UpstreamAnswer) => void
  private reject!: (error: Error) => void
  private readonly socket: WebSocket
  private readonly chunks: Buffer[] = []
  private bytes = 0
  private started = false
  private settled = false
  /** The adaptor's last message came: a close after it is the answer's normal end. */
  private lastSeen = false
  /** The handshake was answered with HTTP (a refusal): its body is the answer. */
  private refused = false
  private idle: NodeJS.Timeout | undefined
  private deadline: NodeJS.Timeout | undefined

  constructor(
    call: WebSocketCall,
    private readonly sink: StreamSink | undefined,
    private readonly limits: ExchangeLimits & { idleMs: number },
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    this.socket = new WebSocket(call.url, {
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      maxPayload: limits.maxBufferedBytes,
      ...(call.agent ? { agent: call.agent } : {}),
    })
    this.socket.on('open', () => {
      this.socket.send(call.body ?? '')
      this.touch()
    })
    this.socket.on('message', (data, isBinary) =>
      this.onMessage(Buffer.from(data as Buffer), isBinary, call.isLast),
    )
    this.socket.on('unexpected-response', (_request, response) => {
      this.refused = true
      const body: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= REFUSAL_MAX_BYTES) body.push(chunk)
      })
      response.on('end', () => {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(response.headers))
          if (typeof value === 'string') headers[name] = value
        this.settle({
          kind: 'buffered',
          status: response.statusCode ?? 502,
          headers,
          body: Buffer.concat(body),
        })
      })
      response.on('error', (error) => this.fail(error))
    })
    this.socket.on('error', (error) => this.fail(error))
    this.socket.on('close', () => {
      if (this.refused) return
      this.finish(
        this.lastSeen ? undefined : new Error('the upstream closed the WebSocket before its answer ended'),
      )
    })
    if (sink && limits.maxStreamMs > 0) {
      this.deadline = setTimeout(
        () =>
          this.cancel(
            new StreamTooLong(
              `the stream lasted longer than ${limits.maxStreamMs / 1000} s (RELAY_MAX_STREAM_SECONDS)`,
            ),
          ),
        limits.maxStreamMs,
      )
    }
  }

  /** Cancels the call (the client went away): the socket is closed at once. */
  cancel(reason: Error): void {
    if (this.settled) return
    this.socket.terminate()
    this.fail(reason)
  }

  private onMessage(data: Buffer, isBinary: boolean, isLast: (message: string) => boolean): void {
    if (this.settled || isBinary) return
    this.touch()
    const text = data.toString('utf8')
    const chunk = Buffer.concat([data, LINE_FEED])
    if (this.sink) {
      if (!this.started) {
        this.started = true
        this.sink.start(200, 'text/event-stream', undefined)
      }
      // A WebSocket has no backpressure of its own here: a message is small, and the client's
      // socket buffers what it cannot take yet.
      this.sink.write(chunk, () => {})
    } else {
      this.bytes += chunk.length
      if (this.bytes > this.limits.maxBufferedBytes) {
        this.cancel(new AnswerTooLarge(`the upstream answer exceeds ${this.limits.maxBufferedBytes} bytes`))
        return
      }
      this.chunks.push(chunk)
    }
    if (isLast(text) || this.sink?.complete) {
      this.lastSeen = true
      this.socket.close(1000)
      this.finish(undefined)
    }
  }

  /** The upstream's answer is complete (or the socket closed): the call is done. */
  private finish(brokeOff: Error | undefined): void {
    if (this.settled) return
    if (this.sink && this.started) {
      this.sink.end(brokeOff)
      this.settle({
        kind: 'streamed',
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        ...(brokeOff ? { brokeOff } : {}),
      })
      return
    }
    if (brokeOff) {
      this.settled = true
      this.clearTimers()
      this.reject(brokeOff)
      return
    }
    this.settle({
      kind: 'buffered',
      status: 200,
      // The client's answer's type: the adaptor makes JSON of the gathered messages.
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(this.chunks),
    })
  }

  private fail(error: Error): void {
    this.finish(error)
  }

  private settle(answer: UpstreamAnswer): void {
    if (this.settled) return
    this.settled = true
    this.clearTimers()
    this.resolve(answer)
  }

  /** RELAY_TIMEOUT between two messages (and from the handshake to the first). */
  private touch(): void {
    if (this.limits.idleMs <= 0) return
    clearTimeout(this.idle)
    this.idle = setTimeout(() => {
      const error = Object.assign(new Error('the upstream sent nothing within RELAY_TIMEOUT'), {
        code: 'UND_ERR_BODY_TIMEOUT',
      })
      this.socket.terminate()
      this.fail(error)
    }, this.limits.idleMs)
  }

  private clearTimers(): void {
    clearTimeout(this.idle)
    clearTimeout(this.deadline)
  }
}
