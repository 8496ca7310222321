import { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import { InvalidUpstreamAnswer, isFieldValue, isInterim } from './upstream-headers.ts'

/** An upstream answer whose body is read as a Node stream (the pass-through proxy, channel tests). */
export interface StreamedResponse {
  statusCode: number
  /** Lower-cased names; a repeated header (Set-Cookie) keeps every value, in order. */
  headers: Record<string, string | string[]>
  body: Readable
}

/**
 * An undici dispatch handler that resolves with the answer's head and streams its body: the upstream is paused
 * while the body's reader is behind, and the call is aborted when the reader destroys the body (a
 * client that left) or `signal` fires.
 */
export class StreamedResponseHandler implements Dispatcher.DispatchHandler {
  readonly response: Promise<StreamedResponse>
  private resolve!: (response: StreamedResponse) => void
  private reject!: (error: Error) => void
  private body: Readable | undefined
  private abort: ((reason?: Error) => void) | undefined
  private resumeUpstream: (() => void) | undefined
  /** The call is over (complete or failed): nothing is left to abort. */
  private ended = false
  private readonly onAbortSignal = () => this.abort?.(abortReason(this.signal!))

  constructor(private readonly signal: AbortSignal | undefined) {
    this.response = new Promise((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abort = abort
    const signal = this.signal
    if (!signal) return
    if (signal.aborted) abort(abortReason(signal))
    else signal.addEventListener('abort', this.onAbortSignal, { once: true })
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (isInterim(statusCode)) return true
    this.resumeUpstream = resume
    const headers: Record<string, string | string[]> = {}
    for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
      const name = rawHeaders[index]!.toString('latin1').toLowerCase()
      const value = rawHeaders[index + 1]!.toString('latin1')
      // Passed on as they are (the proxy route): one Node would refuse to write fails the answer.
      if (!isFieldValue(value)) throw new InvalidUpstreamAnswer(`invalid ${name} header`)
      const before = headers[name]
      headers[name] =
        before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value]
    }
    this.body = new Readable({
      read: () => this.resumeUpstream?.(),
      destroy: (error, callback) => {
        // The reader is gone before the end: the rest is not fetched.
        if (!this.ended) this.abort?.(error ?? new Error('the reader closed the body'))
        callback(error)
      },
    })
    // An error may come before anyone reads the body (a malformed answer in the head's own read,
    // a client gone while the proxy route stores its charge): unheard, Node would throw it and
    // stop the process. Readers that come later still get it (pipe, for await and finished look
    // at the stream's errored state).
    this.body.on('error', () => {})
    this.resolve({ statusCode, headers, body: this.body })
    return true
  }

  onData(chunk: Buffer): boolean {
    return this.body!.push(chunk)
  }

  onComplete(): void {
    this.end()
    this.body!.push(null)
  }

  onError(error: Error): void {
    if (this.ended) return
    this.end()
    if (this.body) this.body.destroy(error)
    else this.reject(error)
  }

  private end(): void {
    this.ended = true
    this.signal?.removeEventListener('abort', this.onAbortSignal)
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the call was aborted')
}

/** The whole body of a streamed answer. */
export async function readWholeBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
