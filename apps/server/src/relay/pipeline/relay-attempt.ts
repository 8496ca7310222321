import type { ChannelCredentials, RelayRequest, StreamTransformer, UpstreamError } from '@one-api/providers'
import { isUpstreamError, localError, transportError } from '@one-api/providers'
import { chargeFor } from '../../billing/request-cost.ts'
import { relayHeaders, sendAnswer } from '../front/client-response.ts'
import type { AttemptInput, AttemptOutcome } from './attempt-types.ts'
import { withChannelCredentials } from './channel-credentials.ts'
import { brokeOffNote, disconnectNote, type RelayState } from './relay-state.ts'
import { SpeechStream } from './speech-stream.ts'
import type { UpstreamClient } from './upstream-client.ts'
import { type StreamSink, UPSTREAM_REQUEST_ID, type UpstreamAnswer } from './upstream-exchange.ts'
import { followTask } from './upstream-task.ts'

/**
 * One try against one channel. Never retries another channel itself; never writes to the client
 * on failure. A channel whose token the upstream refused is tried once more with a new token
 * (channel-credentials.ts).
 */
export async function runAttempt(upstream: UpstreamClient, input: AttemptInput): Promise<AttemptOutcome> {
  const { channel, adaptor } = input
  let relayRequest = input.relayRequest
  // Image URLs the upstream cannot fetch itself are fetched here, once per request.
  const remote = adaptor.remoteImages?.(relayRequest) ?? []
  if (remote.length > 0) {
    const images = await upstream.fetchImages(remote)
    if (!(images instanceof Map)) return { kind: 'failed', error: images }
    relayRequest = { ...relayRequest, images }
  }
  return withChannelCredentials(
    upstream.credentials,
    adaptor,
    { ...channel, defaults: input.defaults },
    (credentials) => callUpstream(upstream, input, relayRequest, credentials),
  )
}

/** The upstream call with the channel's credentials, its answer read or streamed to the client. */
async function callUpstream(
  upstream: UpstreamClient,
  input: AttemptInput,
  relayRequest: RelayRequest,
  credentials: ChannelCredentials,
): Promise<AttemptOutcome> {
  const { state, adaptor } = input
  const built = adaptor.buildRequest(relayRequest, credentials)
  if (isUpstreamError(built)) return { kind: 'failed', error: built }
  // An upstream that answers with a job to follow (upstream-task.ts).
  const plan = adaptor.task?.(relayRequest, credentials)
  const sentAt = process.hrtime.bigint()
  // Speech is relayed as it arrives whether or not the client asked for events, and a streamed
  // transcription's events pass as they come (speech-stream.ts).
  const audioStream =
    state.mode === 'audio-speech' || (state.mode === 'audio-transcription' && state.facts.stream)
  const stream: ClientSink | undefined = audioStream
    ? new SpeechStream(state, state.mode === 'audio-transcription')
    : state.facts.stream
      ? new ClientStream(state, adaptor.createStreamTransformer(relayRequest, built))
      : undefined
  let answer: UpstreamAnswer | UpstreamError
  try {
    if (plan) answer = await followTask(upstream, state, built, plan, stream)
    else {
      const call = upstream.start(built, stream)
      state.upstreamCall = call
      answer = await call.done
    }
  } catch (error) {
    return { kind: 'failed', error: transportError(error) }
  } finally {
    state.upstreamCall = undefined
    state.upstreamNanos += process.hrtime.bigint() - sentAt
  }
  if (answer.kind === 'error') return { kind: 'failed', error: answer }
  if (answer.kind === 'streamed') return stream!.outcome(input)
  const parsed = adaptor.parseResponse(
    { status: answer.status, headers: answer.headers, body: answer.body },
    relayRequest,
  )
  if (isUpstreamError(parsed)) return { kind: 'failed', error: parsed }
  const charge = chargeFor(input.cost, input.promptEstimate, parsed.usage, parsed)
  const contentType = parsed.contentType || answer.headers['content-type'] || 'application/json'
  const upstreamId = answer.headers[UPSTREAM_REQUEST_ID]
  const extra = upstreamId === undefined ? undefined : { [UPSTREAM_REQUEST_ID]: upstreamId }
  const finish = () =>
    sendAnswer(state.response, state.requestId, answer.status, contentType, parsed.body, extra)
  return { kind: 'served', charge, notes: [], streamed: false, finish }
}

/**
 * How long an upstream that sends keep-alive comments may keep the client waiting for its answer
 * before the client's response starts anyway (with those comments), so that the client and the
 * proxies before it see traffic: a queued request (OpenRouter's `: OPENROUTER PROCESSING`) left
 * the client without even headers, and proxies cut it at their first-byte timeout (nginx's 60 s).
 * A failure after that can no longer move to another channel.
 */
const KEEPALIVES_START_RESPONSE_AFTER_MS = 10_000

/**
 * How long the events of a stream that arrived whole may wait in the cork for its charge to be
 * stored (see corkUntilReadDone). A commit takes milliseconds, tens under heavy load on PostgreSQL
 * or MySQL; a database that is slow or out of reach must not hide the answer's text, only hold
 * back its end.
 */
const HELD_EVENTS_MAX_WAIT_MS = 100

// Module-level, not per-stream closures (see corkUntilReadDone).
const releaseUnlessEnded = (stream: ClientStream): void => stream.releaseAfterRead()
const releaseHeldEvents = (stream: ClientStream): void => stream.releaseCork()

/** A StreamSink that writes to the client and then says what the attempt comes to. */
interface ClientSink extends StreamSink {
  outcome(input: AttemptInput): AttemptOutcome
}

/**
 * The client's side of a streamed answer: each upstream chunk goes through the adaptor's
 * transformer and straight to the client's socket; when the socket is full the upstream is
 * paused until it drains, so a slow client holds a constant amount of memory. The client's
 * response starts with the first event that answers (see StreamTransformer.answered; the opening
 * chunk before it is held back), so an upstream that breaks off or reports an error before then
 * has sent the client nothing: the attempt failed, and another channel may serve the request.
 * The response ends at the upstream's `[DONE]`, whether or not the upstream closes its body then.
 */
class ClientStream implements ClientSink {
  private readonly notes: string[] = []
  private status = 200
  private began = false
  private ended = false
  /** What the transformer returned before the answer began: sent with its first event. */
  private heldBack: Array<string | Buffer> = []
  private brokeOff: Error | undefined
  /** A complete stream's end, sent by finish() once its charge is stored (see AttemptOutcome). */
  private pendingEnd: { tail: ReturnType<StreamTransformer['finish']> } | undefined
  private upstreamRequestId: string | undefined
  /** This read's writes are held in the socket (see corkUntilReadDone). */
  private corked = false
  /** Lets the held events go if the charge takes too long (HELD_EVENTS_MAX_WAIT_MS). */
  private heldEventsTimer: NodeJS.Timeout | undefined
  private readonly createdAt = Date.now()
  private keepAlivesSeen = 0

  constructor(
    private readonly state: RelayState,
    private readonly transformer: StreamTransformer,
  ) {}

  /**
   * A 2xx answer to a stream request is read as a stream unless it says it is JSON (an error, or
   * an upstream that ignored `stream`), as one-api decides: some upstreams send their events as
   * text/plain or with no Content-Type.
   */
  takes(contentType: string): boolean {
    const type = contentType.toLowerCase()
    // Newline-delimited JSON (Ollama's streams) is a stream, not one JSON answer.
    return !type.includes('json') || type.includes('ndjson')
  }

  start(status: number, _contentType: string, upstreamRequestId: string | undefined): void {
    this.status = status
    this.upstreamRequestId = upstreamRequestId
  }

  write(chunk: Buffer, resume: () => void): boolean {
    const response = this.state.response
    if (response.destroyed) {
      // The client is gone: the rest would be generated (and billed) for nobody.
      this.state.upstreamCall?.cancel(new Error('the client closed the connection'))
      return true
    }
    const output = this.transformer.push(chunk)
    if (output.length === 0) return true
    if (!this.began) {
      if (!this.transformer.answered && !this.keepAliveStartsResponse()) {
        this.heldBack.push(output)
        return true
      }
      this.begin()
    }
    this.corkUntilReadDone()
    if (response.write(output)) return true
    response.once('drain', resume)
    return false
  }

  /** The upstream sent `[DONE]`: nothing more is for the client (see UpstreamExchange). */
  get complete(): boolean {
    return this.transformer.upstreamCompleted
  }

  end(brokeOff: Error | undefined): void {
    if (this.ended) return
    this.ended = true
    const { state, transformer, notes } = this
    this.brokeOff = brokeOff
    if (brokeOff) {
      notes.push(state.clientGone ? disconnectNote(state) : brokeOffNote(brokeOff))
    }
    if (!transformer.upstreamCompleted && notes.length === 0) notes.push('upstream ended without [DONE]')
    if (transformer.streamError) notes.push(`upstream error in stream: ${transformer.streamError.message}`)
    // finish() always runs: it flushes a last event (and its usage) that had no trailing blank line.
    // A stream the upstream broke off gets no closing [DONE]: see below.
    const tail = transformer.finish(!brokeOff)
    const response = state.response
    if (response.destroyed) return
    // No answer reached the client, and what was held back would tell it nothing: see outcome().
    if (!this.began && !transformer.answered) return
    if (!this.began) this.begin()
    if (!brokeOff) {
      this.pendingEnd = { tail }
      return
    }
    // Cut short, it must not look complete (with a [DONE] and a clean end, SDKs handed the cut text
    // on as a whole answer): what arrived is passed on, then the connection is closed without the
    // body's last chunk, as the upstream's own break would have ended it.
    if (tail.length > 0) response.write(tail)
    const socket = response.socket
    if (socket) socket.end()
    else response.destroy()
  }

  /** The charge for what the stream carried (after end()). */
  outcome(input: AttemptInput): AttemptOutcome {
    const { transformer } = this
    // Nothing reached the client (not even the held-back opening chunk, when it left meanwhile):
    // nothing is billed.
    if (!this.began) {
      // An error event carries no headers of its own: the upstream's request id is the stream's.
      const streamError = transformer.streamError && {
        ...transformer.streamError,
        upstreamRequestId: this.upstreamRequestId,
      }
      const error = this.brokeOff
        ? transportError(this.brokeOff)
        : (streamError ??
          localError(502, 'empty_stream', 'the upstream stream ended before any event', {
            retryable: true,
            type: 'upstream_error',
          }))
      return { kind: 'failed', error }
    }
    // The transformer reads the generated text only if chargeFor asks (no usage reported).
    const charge = chargeFor(input.cost, input.promptEstimate, transformer.usage, transformer)
    return { kind: 'served', charge, notes: this.notes, streamed: true, finish: () => this.finish() }
  }

  /** Ends a complete stream (a cut one was closed by end() already); end() sends what the cork held. */
  private finish(): void {
    clearTimeout(this.heldEventsTimer)
    const response = this.state.response
    if (this.pendingEnd && !response.destroyed) {
      // end() lets every held write go with the end.
      response.end(this.pendingEnd.tail)
      this.corked = false
    } else {
      this.releaseCork()
    }
    this.pendingEnd = undefined
  }

  /**
   * Holds what this read of the upstream writes until the read is done (the next tick), instead of
   * Node's cork, which lets it go in the next tick whatever comes. When the same read also ended the
   * stream (a short answer arrives whole), the cork stays until finish(), so the events, the last
   * bytes and the end leave in one socket write, after the charge is stored, rather than in two;
   * at most HELD_EVENTS_MAX_WAIT_MS, after which the events go and the end waits alone.
   */
  private corkUntilReadDone(): void {
    const socket = this.state.response.socket
    if (this.corked || !socket || socket.writableCorked > 0) return
    socket.cork()
    this.corked = true
    process.nextTick(releaseUnlessEnded, this)
  }

  /**
   * The read is done: the cork goes, unless the stream ended in it (see corkUntilReadDone); then
   * it stays until finish(), or HELD_EVENTS_MAX_WAIT_MS if the charge takes longer.
   */
  releaseAfterRead(): void {
    if (!this.corked) return
    if (!this.pendingEnd) this.releaseCork()
    else this.heldEventsTimer = setTimeout(releaseHeldEvents, HELD_EVENTS_MAX_WAIT_MS, this)
  }

  /** Lets the held writes go (the end, when still pending, waits for finish()); none held: nothing. */
  releaseCork(): void {
    if (!this.corked) return
    this.corked = false
    this.state.response.socket?.uncork()
  }

  /**
   * True when what the transformer just returned holds a keep-alive, and no error, after the
   * upstream has kept the client waiting long enough (see the constant). Only a keep-alive starts
   * the response so: an error or the end of a stream that never answered still fails the attempt.
   */
  private keepAliveStartsResponse(): boolean {
    const { keepAlives, streamError } = this.transformer
    const fresh = keepAlives > this.keepAlivesSeen
    this.keepAlivesSeen = keepAlives
    return fresh && !streamError && Date.now() - this.createdAt >= KEEPALIVES_START_RESPONSE_AFTER_MS
  }

  /** Starts the client's response, with what was held back before the answer began. */
  private begin(): void {
    this.corkUntilReadDone()
    this.began = true
    const { response, requestId } = this.state
    const headers = relayHeaders(response, requestId)
    headers['content-type'] = this.transformer.contentType ?? 'text/event-stream'
    headers['cache-control'] = 'no-cache'
    // No Connection header of our own: Node writes keep-alive or close, as the client asked and as
    // it will then do (a fixed keep-alive told a closing client the connection would stay open).
    headers['x-accel-buffering'] = 'no'
    if (this.upstreamRequestId !== undefined) headers[UPSTREAM_REQUEST_ID] = this.upstreamRequestId
    response.writeHead(this.status, headers)
    // Written in the same turn as what follows, so they leave in one socket write.
    for (const output of this.heldBack) response.write(output)
    this.heldBack = []
  }
}
