import { request as httpRequest, type IncomingMessage } from 'node:http'
import { SPEECH_PIECE_BYTES, speechAudio, speechPiece } from '@one-api/mock-upstream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_ID, RelayFixture } from '../testing/relay-fixture.ts'
import { startTcpTap, type TcpTap } from '../testing/tcp-tap.ts'
import { testDialects } from '../testing/test-databases.ts'

// Five pieces of audio 400 ms apart: the whole answer takes 1.6 s upstream.
const PACED = 'tts-1+chunks=5+chunk-delay-ms=400'
const PACED_TOTAL_MS = 4 * 400
// 100 pieces 50 ms apart: five seconds of audio if nobody stops it.
const LONG = 'tts-1+chunks=100+chunk-delay-ms=50'
const LONG_TOTAL_MS = 99 * 50
// Two pieces, then the upstream closes its connection mid-audio.
const CUT = 'tts-1+chunks=5+chunk-delay-ms=100+cut-after=2'
// Events: three `speech.audio.delta` and a `speech.audio.done`, 400 ms apart.
const EVENTS = 'gpt-4o-mini-tts+chunks=3+chunk-delay-ms=400'
const EVENTS_TOTAL_MS = 3 * 400
// Served by two channels: the first answer a test makes an error event is retried on the other.
const EVENTS_TWICE = 'gpt-4o-mini-tts+chunks=2'
const RATIO = 7.5
const INPUT = 'Hello world, spoken as it is made.'
// 34 characters × 7.5, rounded up.
const QUOTA = Math.ceil(INPUT.length * RATIO)

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

interface Received {
  response: IncomingMessage
  body: Buffer
  /** Milliseconds from sending the request to the first byte of the body. */
  firstByteMs: number
  /** Milliseconds from sending the request to the end (or the break) of the body. */
  totalMs: number
  /** Set when the body did not end cleanly. */
  broken: boolean
}

/** A speech request over plain node:http, timing the bytes as they arrive. */
function postSpeech(baseUrl: string, key: string, body: Record<string, unknown>): Promise<Received> {
  return new Promise((resolve, reject) => {
    const sentAt = Date.now()
    const request = httpRequest(`${baseUrl}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    })
    request.on('error', reject)
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      let firstByteMs = -1
      const finish = (broken: boolean) =>
        resolve({
          response,
          body: Buffer.concat(chunks),
          firstByteMs,
          totalMs: Date.now() - sentAt,
          broken,
        })
      response.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = Date.now() - sentAt
        chunks.push(chunk)
      })
      response.on('end', () => finish(false))
      response.on('aborted', () => finish(true))
      response.on('error', () => finish(true))
    })
    request.end(JSON.stringify({ voice: 'alloy', input: INPUT, ...body }))
  })
}

describe.each(testDialects())('relay of text to speech as it is made on %s', (dialect) => {
  let fixture: RelayFixture
  let tap: TcpTap

  beforeAll(async () => {
    fixture = await RelayFixture.start(dialect)
    tap = await startTcpTap(fixture.mock.port)
    await fixture.setPrices({
      [PACED]: RATIO,
      [LONG]: RATIO,
      [CUT]: RATIO,
      [EVENTS]: RATIO,
      [EVENTS_TWICE]: RATIO,
    })
    await fixture.addChannel({ models: [PACED, EVENTS, CUT, EVENTS_TWICE] })
    // A second channel for the cut audio: a retry after bytes reached the client would show here.
    await fixture.addChannel({ models: [CUT, EVENTS_TWICE] })
    await fixture.addChannel({ models: [LONG], base_url: `${tap.url}/v1` })
  })
  afterAll(async () => {
    await fixture?.close()
    await tap?.close()
  })

  /** A user with a token of its own, so its balances and logs are this test's alone. */
  async function newCaller(name: string) {
    const user = await fixture.createUser(name, 1_000_000)
    const token = await fixture.createToken({ remain_quota: 100_000 }, user.client)
    return { user, token }
  }

  const chargedOnce = (quota: number) => ({
    user: { quota: 1_000_000 - quota, used_quota: quota, request_count: 1 },
    token: { remain_quota: 100_000 - quota, used_quota: quota },
  })

  it('sends the first audio before the upstream finished, byte for byte, billed per character', async () => {
    const { user, token } = await newCaller('listener')
    const received = await postSpeech(fixture.baseUrl, token.key, { model: PACED })
    expect(received.response.statusCode).toBe(200)
    expect(received.response.headers['content-type']).toBe('audio/mpeg')
    // The first piece leaves the upstream at once; gathered, it arrived with the last, 1.6 s later.
    expect(received.firstByteMs).toBeLessThan(PACED_TOTAL_MS / 2)
    expect(received.totalMs).toBeGreaterThanOrEqual(PACED_TOTAL_MS - 50)
    expect(received.broken).toBe(false)
    expect(received.body.equals(speechAudio(5))).toBe(true)

    const log = await fixture.logFor(received.response.headers[REQUEST_ID] as string)
    expect(log).toMatchObject({
      model_name: PACED,
      quota: QUOTA,
      prompt_tokens: 0,
      completion_tokens: 0,
      is_stream: false,
      user_id: user.id,
    })
    expect(log.content).not.toContain('broke off')
    expect(log.elapsed_time).toBeGreaterThanOrEqual(PACED_TOTAL_MS - 50)
    expect(await fixture.balances(user.id, token.id)).toEqual(chargedOnce(QUOTA))
  })

  it('passes a stream of speech events through as they come, billed per character', async () => {
    const { user, token } = await newCaller('events')
    const received = await postSpeech(fixture.baseUrl, token.key, { model: EVENTS, stream_format: 'sse' })
    expect(received.response.statusCode).toBe(200)
    expect(received.response.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(received.firstByteMs).toBeLessThan(EVENTS_TOTAL_MS / 2)
    // OpenAI's events, byte for byte as the upstream sent them (the input's 7 words, 10 tokens a piece):
    // https://platform.openai.com/docs/api-reference/audio/speech-audio-delta-event
    const events = [
      { type: 'speech.audio.delta', audio: speechPiece(0).toString('base64') },
      { type: 'speech.audio.delta', audio: speechPiece(1).toString('base64') },
      { type: 'speech.audio.delta', audio: speechPiece(2).toString('base64') },
      { type: 'speech.audio.done', usage: { input_tokens: 7, output_tokens: 30, total_tokens: 37 } },
    ]
    expect(received.body.toString('utf8')).toBe(
      events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''),
    )
    expect(received.broken).toBe(false)
    // The upstream was asked for events, with the client's body as it was.
    const upstream = fixture.mock.requests.filter((request) => request.json?.model === EVENTS).at(-1)!
    expect(upstream.headers.accept).toBe('text/event-stream')
    expect(upstream.json).toMatchObject({ stream_format: 'sse', input: INPUT })

    const log = await fixture.logFor(received.response.headers[REQUEST_ID] as string)
    expect(log).toMatchObject({ model_name: EVENTS, quota: QUOTA, is_stream: true })
    expect(await fixture.balances(user.id, token.id)).toEqual(chargedOnce(QUOTA))
  })

  it('moves a speech event stream that opens with an error to another channel, billed once', async () => {
    await fixture.setOption('RetryTimes', 2)
    const { user, token } = await newCaller('errspeech')
    fixture.mock.addFault({ match: { model: EVENTS_TWICE }, streamError: true, times: 1 })
    const received = await postSpeech(fixture.baseUrl, token.key, {
      model: EVENTS_TWICE,
      stream_format: 'sse',
    })
    // It was a billed 200 carrying only the error event; now the other channel's events come.
    expect(received.response.statusCode).toBe(200)
    const text = received.body.toString()
    expect(text).toContain('speech.audio.done')
    expect(text).not.toContain('"type":"error"')
    const log = await fixture.logFor(received.response.headers[REQUEST_ID] as string)
    expect(log).toMatchObject({ quota: QUOTA, is_stream: true })
    expect(await fixture.balances(user.id, token.id)).toEqual(chargedOnce(QUOTA))
  })

  it('cancels the upstream call when the client hangs up mid-audio, billed per character', async () => {
    const { user, token } = await newCaller('hang-up')
    const connectionsBefore = tap.connections.length
    const leftAt = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${fixture.baseUrl}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      })
      request.on('error', () => {})
      request.on('response', (response) => {
        let bytes = 0
        response.on('error', () => {})
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length
          // Two pieces heard, then the client goes away.
          if (bytes >= 2 * SPEECH_PIECE_BYTES && !request.destroyed) {
            request.destroy()
            resolve(Date.now())
          }
        })
        response.on('end', () => reject(new Error('the whole audio arrived before the client left')))
      })
      request.end(JSON.stringify({ model: LONG, voice: 'alloy', input: INPUT }))
    })

    // The gateway closed its upstream connection soon after the client left, not after 5 s.
    const opened = tap.connections.slice(connectionsBefore)
    expect(opened.length).toBeGreaterThan(0)
    while (
      opened.some((connection) => connection.closedAt === undefined) &&
      Date.now() - leftAt < LONG_TOTAL_MS
    )
      await sleep(20)
    expect(opened.every((connection) => connection.closedAt! - leftAt < LONG_TOTAL_MS / 2)).toBe(true)

    const [log] = await fixture.waitForLogs({ userId: user.id }, 1)
    expect(log).toMatchObject({ model_name: LONG, quota: QUOTA, is_stream: false })
    expect(log.content).toContain('client disconnected before the end')
    expect(log.elapsed_time).toBeLessThan(LONG_TOTAL_MS / 2)
    expect(fixture.mock.requests.filter((request) => request.json?.model === LONG)).toHaveLength(1)
    await sleep(200)
    expect(await fixture.balances(user.id, token.id)).toEqual(chargedOnce(QUOTA))
    expect(await fixture.consumeLogs({ userId: user.id })).toHaveLength(1)
  })

  it('ends the client response when the upstream breaks off mid-audio, without a retry, billed per character', async () => {
    const { user, token } = await newCaller('cut-off')
    const before = fixture.mock.requests.filter((request) => request.json?.model === CUT).length
    const received = await postSpeech(fixture.baseUrl, token.key, { model: CUT })
    expect(received.response.statusCode).toBe(200)
    // The two pieces sent, then the end of the response; the client can tell it was cut short.
    expect(received.body.equals(speechAudio(2))).toBe(true)
    expect(received.broken).toBe(true)
    expect(fixture.mock.requests.filter((request) => request.json?.model === CUT).length - before).toBe(1)

    const log = await fixture.logFor(received.response.headers[REQUEST_ID] as string)
    expect(log).toMatchObject({ model_name: CUT, quota: QUOTA })
    expect(log.content).toContain('upstream stream broke off')
    expect(await fixture.balances(user.id, token.id)).toEqual(chargedOnce(QUOTA))
  })
})
