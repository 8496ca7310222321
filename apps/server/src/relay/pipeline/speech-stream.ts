import { transportError } from '@one-api/providers'
import { chargeFor } from '../../billing/request-cost.ts'
import { relayHeaders } from '../front/client-response.ts'
import type { AttemptInput, AttemptOutcome } from './relay-attempt.ts'
import type { RelayState } from './relay-state.ts'
import type { StreamSink } from './upstream-exchange.ts'

/**
 * The client's side of a text-to-speech answer. OpenAI sends speech as it is synthesised (chunked
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
  private began = false
  private brokeOff: Error | undefined

  constructor(private readonly state: RelayState) {}

  takes(contentType: string): boolean {
    return !contentType.toLowerCase().includes('json')
  }

  start(status: number, contentType: string): void {
    this.status = status
    this.contentType = contentType
  }

  write(chunk: Buffer, resume: () => void): boolean {
    const response = this.state.response
    if (chunk.length === 0 || response.destroyed) return true
    // The response starts with the first bytes: an upstream that breaks off before them has sent
    // the client nothing, and the request may still be served by another channel.
    if (!this.began) this.begin()
    if (response.write(chunk)) return true
    response.once('drain', resume)
    return false
  }

  end(brokeOff: Error | undefined): void {
    const { state, notes } = this
    this.brokeOff = brokeOff
    if (brokeOff) {
      notes.push(state.clientGone ? 'client disconnected before the end' : 'upstream stream broke off')
    }
    const response = state.response
    if (response.destroyed || (brokeOff && !this.began)) return
    if (!brokeOff) {
      if (!this.began) this.begin() // an empty answer, served as the upstream gave it
      response.end()
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
    if (!this.began) {
      // Only a break before the first byte leaves the response unstarted (a clean end starts it).
      return { kind: 'failed', error: transportError(this.brokeOff) }
    }
    const charge = chargeFor(input.cost, input.promptEstimate, undefined)
    return { kind: 'served', charge, notes: this.notes }
  }

  private begin(): void {
    this.began = true
    const { response, requestId } = this.state
    const headers = relayHeaders(response, requestId)
    const eventStream = this.contentType.toLowerCase().includes('text/event-stream')
    headers['content-type'] = this.contentType || 'application/octet-stream'
    if (eventStream) headers['cache-control'] = 'no-cache'
    // Proxies such as nginx would otherwise gather the audio again before the client got any.
    headers['x-accel-buffering'] = 'no'
    response.writeHead(this.status, headers)
  }
}
