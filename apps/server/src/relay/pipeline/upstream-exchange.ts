import type { Dispatcher } from 'undici'
import { headerNameIs, InvalidUpstreamAnswer, isFieldValue, isInterim } from './upstream-headers.ts'

/** Where a streamed upstream answer goes, chunk by chunk, as it arrives. */
export interface StreamSink {
  /**
   * Whether a 2xx answer with this Content-Type (lower-cased or not, '' when none) goes to the
   * sink; anything else is gathered. Without it, event streams alone do (chat and completions).
   */
  takes?(contentType: string): boolean
  /** The upstream answered 2xx with what the sink takes: the client's response may start now. */
  start(status: number, contentType: string, upstreamRequestId: string | undefined): void
  /** One upstream chunk. Returns false to pause the upstream until `resume` is called. */
  write(chunk: Buffer, resume: () => void): boolean
  /**
   * The upstream is done (`brokeOff` when it ended in an error). Called in the same turn as the
   * last chunk, so the client's last chunk and its end leave in one socket write.
   */
  end(brokeOff: Error | undefined): void
  /**
   * True once the sink has had all the answer (an SSE stream's `[DONE]`): the call then ends
   * without waiting for the upstream to close its body, which some hold open.
   */
  readonly complete?: boolean
}

export interface UpstreamHead {
  status: number
  /**
   * Lower-cased names; repeated headers keep their last value. A 2xx answer keeps only its
   * Content-Type, the one header read from a success; an error answer keeps them all (its
   * Retry-After and the like feed the error mapping).
   */
  headers: Record<string, string>
}

/** A whole answer read into memory (non-stream requests, and every error answer). */
export interface BufferedAnswer extends UpstreamHead {
  kind: 'buffered'
  body: Buffer
}

/** An answer that went to the StreamSink; `brokeOff` is set when it ended in an error, not a clean end. */
export interface StreamedAnswer extends UpstreamHead {
  kind: 'streamed'
  brokeOff?: Error
}

export type UpstreamAnswer = BufferedAnswer | StreamedAnswer

/** How long an upstream may keep its body open after the answer's end ([DONE]) before it is cut. */
const AFTER_ANSWER_GRACE_MS = 1_000

// Module-level functions, not per-call closures: each closure the hot path creates costs a little.
const doNothing = (): void => {}

/** Every header whose value may be used, names lower-cased (an error answer's: see UpstreamHead). */
function decodeHeaders(rawHeaders: Buffer[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const value = rawHeaders[index + 1]!.toString('latin1')
    if (isFieldValue(value)) headers[rawHeaders[index]!.toString('latin1').toLowerCase()] = value
  }
  return headers
}

const CONTENT_TYPE = 'content-type'
/** OpenAI's id of the request on its side: clients (the official SDKs' `_request_id`) read it. */
export const UPSTREAM_REQUEST_ID = 'x-request-id'

/**
 * The headers a success needs (Content-Type, the upstream's request id; last value of each). Both
 * are passed on to the client: a value Node would refuse to write fails the answer, as a broken
 * answer (it would have failed the client's response half-way).
 */
function successHeaders(rawHeaders: Buffer[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!
    const kept = headerNameIs(name, CONTENT_TYPE)
      ? CONTENT_TYPE
      : headerNameIs(name, UPSTREAM_REQUEST_ID)
        ? UPSTREAM_REQUEST_ID
        : undefined
    if (kept === undefined) continue
    const value = rawHeaders[index + 1]!.toString('latin1')
    if (!isFieldValue(value)) throw new InvalidUpstreamAnswer(`invalid ${kept} header`)
    headers[kept] = value
  }
  return headers
}

/** What an exchange may take from its upstream (RELAY_MAX_RESPONSE_BYTES, RELAY_MAX_STREAM_SECONDS). */
export interface ExchangeLimits {
  /** The most a gathered answer may hold; past it the call fails. */
  maxBufferedBytes: number
  /** How long a call with a sink may last before it is cut; 0: no limit. */
  maxStreamMs: number
}

/** An answer past RELAY_MAX_RESPONSE_BYTES: undici's code for its own limit, so one mapping serves both. */
export class AnswerTooLarge extends Error {
  readonly code = 'UND_ERR_RES_EXCEEDED_MAX_SIZE'
}

/** A stream cut at RELAY_MAX_STREAM_SECONDS. */
export class StreamTooLong extends Error {
  readonly code = 'RELAY_STREAM_TOO_LONG'
}

/**
 * One upstream call of the relay, as an undici dispatch handler: the answer is either gathered
 * into one Buffer or handed chunk by chunk to a StreamSink, with backpressure from the client's
 * socket. No Readable stream, no AbortSignal: on the relay's hot path they cost more than the
 * rest of the gateway's own work. Head and body timeouts are the dispatcher's (RELAY_TIMEOUT).
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler {
  readonly done: Promise<UpstreamAnswer>
  private resolve!: (answer: UpstreamAnswer) => void
  private reject!: (error: Error) => void
  private abortUpstream: ((reason?: Error) => void) | undefined
  private cancelReason: Error | undefined
  private head: UpstreamHead | undefined
  private chunks: Buffer[] = []
  private bufferedBytes = 0
  private streaming = false
  private resumeUpstream: () => void = doNothing
  /** The sink had the whole answer before the upstream ended (see finishEarly). */
  private finishedEarly = false
  private upstreamEnded = false
  private lingering: NodeJS.Timeout | undefined
  private streamDeadline: NodeJS.Timeout | undefined

  /** `sink`: set for stream (and speech) requests; used only for a 2xx answer it takes. */
  constructor(
    private readonly sink: StreamSink | undefined,
    private readonly limits: ExchangeLimits,
  ) {
    this.done = new Promise<UpstreamAnswer>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    if (sink && limits.maxStreamMs > 0) {
      this.streamDeadline = setTimeout(() => {
        const seconds = limits.maxStreamMs / 1000
        this.cancel(
          new StreamTooLong(`the stream lasted longer than ${seconds} s (RELAY_MAX_STREAM_SECONDS)`),
        )
      }, limits.maxStreamMs)
    }
  }

  /** Cancels the call (the client went away); the upstream connection is closed. */
  cancel(reason: Error): void {
    if (this.cancelReason) return
    this.cancelReason = reason
    this.abortUpstream?.(reason)
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.cancelReason) abort(this.cancelReason)
    else this.abortUpstream = abort
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (isInterim(status)) return true
    // A success keeps two headers, not the twenty or so a provider sends.
    const success = status >= 200 && status < 300
    const headers = success ? successHeaders(rawHeaders) : decodeHeaders(rawHeaders)
    this.head = { status, headers }
    this.resumeUpstream = resume
    const contentType = headers['content-type'] ?? ''
    const sink = this.sink
    if (
      sink &&
      success &&
      (sink.takes ? sink.takes(contentType) : contentType.includes('text/event-stream'))
    ) {
      this.streaming = true
      sink.start(status, contentType, headers[UPSTREAM_REQUEST_ID])
    }
    return true
  }

  onData(chunk: Buffer): boolean {
    // Data only follows onHeaders, which set resumeUpstream to the dispatcher's resume.
    if (this.streaming) {
      if (this.finishedEarly) return true
      const more = this.sink!.write(chunk, this.resumeUpstream)
      if (!this.sink!.complete) return more
      this.finishEarly()
      // The client's response has ended, and an ended response never drains: paused now, the
      // upstream would never be resumed to its body's end, and its connection would be cut.
      return true
    }
    // A call without a sink has the cap from its dispatcher (maxResponseSize); an answer gathered
    // for a stream call (JSON, an error) is counted here. Thrown, it fails the call.
    this.bufferedBytes += chunk.length
    if (this.bufferedBytes > this.limits.maxBufferedBytes) {
      throw new AnswerTooLarge(`the upstream answer exceeds ${this.limits.maxBufferedBytes} bytes`)
    }
    this.chunks.push(chunk)
    return true
  }

  /**
   * The sink has the whole answer before the upstream closed its body: the call is done now. The
   * upstream's end usually follows in the same read; one that does not come within
   * AFTER_ANSWER_GRACE_MS is not waited for (its connection is closed).
   */
  private finishEarly(): void {
    this.finishedEarly = true
    clearTimeout(this.streamDeadline)
    this.sink!.end(undefined)
    this.resolve({ kind: 'streamed', ...this.head! })
    queueMicrotask(() => {
      if (this.upstreamEnded) return
      this.lingering = setTimeout(
        () => this.abortUpstream?.(new Error('the upstream kept its stream open after [DONE]')),
        AFTER_ANSWER_GRACE_MS,
      )
    })
  }

  onComplete(): void {
    this.upstreamEnded = true
    clearTimeout(this.streamDeadline)
    if (this.finishedEarly) {
      clearTimeout(this.lingering)
      return
    }
    const head = this.head ?? { status: 502, headers: {} }
    if (this.streaming) {
      this.sink!.end(undefined)
      this.resolve({ kind: 'streamed', ...head })
      return
    }
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks)
    this.chunks = []
    this.resolve({ kind: 'buffered', ...head, body })
  }

  onError(error: Error): void {
    this.upstreamEnded = true
    clearTimeout(this.streamDeadline)
    if (this.finishedEarly) {
      clearTimeout(this.lingering)
      return
    }
    this.chunks = []
    // Once the stream reached the client, a failure is the end of what it gets, not a failed attempt.
    if (this.streaming && this.head) {
      this.sink!.end(error)
      this.resolve({ kind: 'streamed', ...this.head, brokeOff: error })
    } else {
      this.reject(error)
    }
  }
}
