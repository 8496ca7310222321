import { isUpstreamError, mapUpstreamError, transportError, type UpstreamError } from '@one-api/providers'
import { chargeFor } from '../../billing/request-cost.ts'
import { relayHeaders } from '../front/client-response.ts'
import type { AttemptInput, AttemptOutcome } from './attempt-types.ts'
import { brokeOffNote, disconnectNote, type RelayState } from './relay-state.ts'
import { type StreamSink, UPSTREAM_REQUEST_ID } from './upstream-exchange.ts'

/**
 * The client's side of a text-to-speech answer, and of a transcription asked for as events. OpenAI sends speech as it is synthesised (chunked
 * audio, or with `stream_format: "sse"` `speech.audio.delta` events), and one-api streams it back:
 * gathering it whole kept the client waiting for the last byte before it could play the first.
 * The bytes go to the client's socket untouched, with the upstream's Content-Type; when the socket
 * is full the upstream is paused until it drains, so a slow client holds a constant amount of
 * memory. A JSON answer is an error (parseOpenAiResponse) and is gathered like any failure.
 * https://platform.openai.com/docs/api-reference/audio/createSpeech
 */
export class SpeechStream implements StreamSink {
  private readonly notes: string[] = []
  private status = 200
  private contentType = ''
  private upstreamRequestId: string | undefined
  private began = false
  private brokeOff: Error | undefined
  /** The answer arrived whole: finish() ends it once its charge is stored. */
  private answeredWhole = false
  private eventStream = false
  /** An event stream's bytes before its first whole event. */
  private pending: Buffer | undefined
  /** The error an event stream opened with: the attempt failed. */
  private streamError: UpstreamError | undefined

  /** A streamed transcription's bytes, read for its text and usage once it ended (see outcome). */
  private kept: Buffer[] | undefined
  private keptBytes = 0

  /** `transcription`: the events are kept (bounded) to be billed by what they say. */
  constructor(
    private readonly state: RelayState,
    transcription = false,
  ) {
    if (transcription) this.kept = []
  }

  takes(contentType: string): boolean {
    return !contentType.toLowerCase().includes('json')
  }

  start(status: number, contentType: string, upstreamRequestId: string | undefined): void {
    this.status = status
    this.contentType = contentType
    this.upstreamRequestId = upstreamRequestId
    this.eventStream = contentType.toLowerCase().includes('text/event-stream')
  }

  write(chunk: Buffer, resume: () => void): boolean {
    const response = this.state.response
    if (chunk.length === 0 || response.destroyed || this.streamError) return true
    if (this.kept && this.keptBytes + chunk.length <= KEPT_LIMIT) {
      this.kept.push(chunk)
      this.keptBytes += chunk.length
    }
    // The response starts with the first bytes: an upstream that breaks off before them has sent
    // the client nothing, and the request may still be served by another channel.
    let output = chunk
    if (!this.began) {
      const first = this.firstBytes(chunk)
      if (first === undefined) return true
      output = first
      this.begin()
    }
    if (response.write(output)) return true
    response.once('drain', resume)
    return false
  }

  /**
   * What may start the response: any audio bytes, or an event stream's first whole event unless
   * it is an error (the attempt then fails, is refunded and may move to another channel, as a chat
   * stream's does; it was a billed 200 carrying only the error). Undefined while that first event
   * is still arriving, or when it was an error.
   */
  private firstBytes(chunk: Buffer): Buffer | undefined {
    if (!this.eventStream) return chunk
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
    const first = firstEvent(this.pending.toString('utf8'))
    if (first === undefined && this.pending.length < FIRST_EVENT_LIMIT) return undefined
    const held = this.pending
    this.pending = undefined
    if (first && isErrorEvent(first)) {
      this.streamError = mapUpstreamError(200, first.data)
      return undefined
    }
    return held
  }

  end(brokeOff: Error | undefined): void {
    const { state, notes } = this
    this.brokeOff = brokeOff
    if (brokeOff) {
      notes.push(state.clientGone ? disconnectNote(state) : brokeOffNote(brokeOff))
    }
    const response = state.response
    if (response.destroyed || (brokeOff && !this.began) || this.streamError) return
    if (!brokeOff) {
      // An event stream that ended before its first whole event: what came is passed on as it is.
      const pending = this.pending
      this.pending = undefined
      if (!this.began) this.begin() // an empty answer, served as the upstream gave it
      if (pending) response.write(pending)
      // Ended by finish(), once the charge is stored.
      this.answeredWhole = true
      return
    }
    // Audio cut short must not look complete: the connection is closed after the bytes already
    // written, without the body's last chunk, so the client sees the answer was cut (as it would
    // have from the upstream itself). Nothing is retried once bytes reached the client.
    const socket = response.socket
    if (socket) socket.end()
    else response.destroy()
  }

  /** The charge (after end()): per input character once any audio reached the client. */
  outcome(input: AttemptInput): AttemptOutcome {
    if (this.streamError && !this.began) return { kind: 'failed', error: this.streamError }
    if (!this.began) {
      // Only a break before the first byte leaves the response unstarted (a clean end starts it).
      return { kind: 'failed', error: transportError(this.brokeOff) }
    }
    const charge = this.kept
      ? this.transcriptionCharge(input)
      : chargeFor(input.cost, input.promptEstimate, undefined)
    // Audio relayed as it arrives is a stream in the log only when the client asked for events.
    return {
      kind: 'served',
      charge,
      notes: this.notes,
      streamed: this.state.facts.stream,
      finish: () => this.finish(),
    }
  }

  /** Ends a complete answer (a cut one was closed by end() already). */
  private finish(): void {
    const response = this.state.response
    if (this.answeredWhole && !response.destroyed) response.end()
    this.answeredWhole = false
  }

  /** A streamed transcription is billed by its `transcript.text.done` event, as the whole answer would be. */
  private transcriptionCharge(input: AttemptInput) {
    const parsed = input.adaptor.parseResponse(
      { status: this.status, headers: { 'content-type': this.contentType }, body: Buffer.concat(this.kept!) },
      input.relayRequest,
    )
    if (isUpstreamError(parsed)) return chargeFor(input.cost, input.promptEstimate, undefined)
    return chargeFor(input.cost, input.promptEstimate, parsed.usage, parsed)
  }

  private begin(): void {
    this.began = true
    const { response, requestId } = this.state
    const headers = relayHeaders(response, requestId)
    headers['content-type'] = this.contentType || 'application/octet-stream'
    if (this.eventStream) headers['cache-control'] = 'no-cache'
    // Proxies such as nginx would otherwise gather the audio again before the client got any.
    headers['x-accel-buffering'] = 'no'
    if (this.upstreamRequestId !== undefined) headers[UPSTREAM_REQUEST_ID] = this.upstreamRequestId
    response.writeHead(this.status, headers)
  }
}

/** A streamed transcription's events are kept up to this size (an hour of speech is about 60 kB of text). */
const KEPT_LIMIT = 8 * 1024 * 1024

/** An event stream's first event is read up to this size; a larger one starts the response as it is. */
const FIRST_EVENT_LIMIT = 64 * 1024

interface StreamEvent {
  name: string
  data: string
}

/**
 * The first whole event that carries something (comments and blank keep-alives are skipped), or
 * undefined while none has arrived yet. Lines end in LF, CRLF or CR, as SSE allows.
 * https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream
 */
function firstEvent(text: string): StreamEvent | undefined {
  const blocks = text.split(/\r\n\r\n|\n\n|\r\r/)
  // The last block is not known to be whole until a blank line follows it.
  for (const block of blocks.slice(0, -1)) {
    let name = ''
    const data: string[] = []
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
      else if (line.startsWith('event:')) name = line.slice(6).trim()
    }
    if (data.length > 0 || name !== '') return { name, data: data.join('\n') }
  }
  return undefined
}

/** An `event: error`, or data shaped `{"type":"error",...}` or `{"error":{...}}`. */
function isErrorEvent(event: StreamEvent): boolean {
  if (event.name === 'error') return true
  if (!event.data.includes('error')) return false
  try {
    const parsed = JSON.parse(event.data) as { type?: unknown; error?: unknown }
    return parsed.type === 'error' || (typeof parsed.error === 'object' && parsed.error !== null)
  } catch {
    return false
  }
}
