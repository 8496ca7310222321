import { describe, expect, it } from 'vitest'
import type { AttemptInput } from './attempt-types.ts'
import type { RelayState } from './relay-state.ts'
import { SpeechStream } from './speech-stream.ts'

/** A client response that records what reached it. */
function fakeState() {
  const written: Buffer[] = []
  const response = {
    req: { headers: {} },
    destroyed: false,
    headers: undefined as Record<string, unknown> | undefined,
    writeHead(_status: number, headers: Record<string, unknown>) {
      this.headers = headers
    },
    write(chunk: Buffer) {
      written.push(Buffer.from(chunk))
      return true
    },
    once() {},
    end() {},
  }
  const state = { response, requestId: 'test-request', clientGone: false } as unknown as RelayState
  return { state, response, written: () => Buffer.concat(written).toString() }
}

const input = {} as AttemptInput

/** Sends `chunks` as an upstream event stream; the outcome's kind, and what the client got. */
function relay(chunks: string[]) {
  const { state, response, written } = fakeState()
  const sink = new SpeechStream(state)
  sink.start(200, 'text/event-stream', undefined)
  for (const chunk of chunks) sink.write(Buffer.from(chunk), () => {})
  sink.end(undefined)
  const failed = !response.headers
  return { failed, sent: written(), outcome: failed ? sink.outcome(input).kind : 'served' }
}

const ERROR = '{"type":"error","error":{"message":"The server had an error","type":"server_error"}}'

describe('a speech event stream whose first event is an error', () => {
  it('fails the attempt and sends the client nothing, however the event arrives', () => {
    for (const chunks of [
      [`data: ${ERROR}\n\n`],
      [`data: ${ERROR.slice(0, 20)}`, `${ERROR.slice(20)}\n`, '\n'], // split across chunks
      [`data: ${ERROR}\r\n\r\n`], // CRLF
      [`data: ${ERROR}\r\r`], // bare CR
      [`: keep-alive\n\n`, `data: ${ERROR}\n\n`], // a comment first
      ['event: error\ndata: {"message":"synthesis failed"}\n\n'], // named error event
    ]) {
      const result = relay(chunks)
      expect(result, JSON.stringify(chunks)).toMatchObject({ failed: true, sent: '', outcome: 'failed' })
    }
  })

  it('passes every other stream on byte for byte, its first event included', () => {
    const delta = 'data: {"type":"speech.audio.delta","audio":"AAAA"}\n\n'
    const done = 'data: {"type":"speech.audio.done","usage":{"input_tokens":3}}\n\n'
    for (const chunks of [
      [delta, done],
      [': keep-alive\n\n', delta, done],
      [delta.slice(0, 10), delta.slice(10), done],
    ]) {
      const result = relay(chunks)
      expect(result.failed).toBe(false)
      expect(result.sent).toBe(chunks.join(''))
    }
  })
})
