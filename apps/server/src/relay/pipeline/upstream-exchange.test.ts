import { describe, expect, it } from 'vitest'
import { type ExchangeLimits, type StreamSink, UpstreamExchange } from './upstream-exchange.ts'

/** A sink that records what the exchange hands it. */
function recordingSink() {
  const seen: string[] = []
  const sink: StreamSink = {
    start: (status) => void seen.push(`start ${status}`),
    write: (chunk) => {
      seen.push(`write ${chunk.toString()}`)
      return true
    },
    end: (brokeOff) => void seen.push(`end ${brokeOff?.message ?? 'clean'}`),
  }
  return { sink, seen }
}

const raw = (...pairs: string[]) => pairs.map((text) => Buffer.from(text, 'latin1'))
const LIMITS: ExchangeLimits = { maxBufferedBytes: 1024 * 1024, maxStreamMs: 0 }
const resume = () => {}

describe('UpstreamExchange', () => {
  it('streams a 2xx event stream whatever the case of its Content-Type, keeping that header alone', async () => {
    const { sink, seen } = recordingSink()
    const exchange = new UpstreamExchange(sink, LIMITS)
    const headers = raw(
      'X-Request-Id',
      'abc',
      'Content-Type',
      'text/event-stream; charset=utf-8',
      'Date',
      'x',
    )
    exchange.onHeaders(200, headers, resume)
    exchange.onData(Buffer.from('data: 1\n\n'))
    exchange.onComplete()
    const answer = await exchange.done
    expect(seen).toEqual(['start 200', 'write data: 1\n\n', 'end clean'])
    expect(answer.kind).toBe('streamed')
    expect(answer.headers).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'x-request-id': 'abc',
    })
  })

  it('keeps every header of an error answer, and the last Content-Type and request id of a success', async () => {
    const keptOf = async (status: number, ...pairs: string[]) => {
      const exchange = new UpstreamExchange(undefined, LIMITS)
      exchange.onHeaders(status, raw(...pairs), resume)
      exchange.onComplete()
      return (await exchange.done).headers
    }
    expect(
      await keptOf(429, 'Content-Type', 'application/json', 'Retry-After', '3', 'X-Request-Id', 'abc'),
    ).toEqual({ 'content-type': 'application/json', 'retry-after': '3', 'x-request-id': 'abc' })
    expect(
      await keptOf(
        200,
        'content-type',
        'text/plain',
        'Retry-After',
        '3',
        'CONTENT-TYPE',
        'application/json',
        'x-request-ID',
        'req_1',
      ),
    ).toEqual({ 'content-type': 'application/json', 'x-request-id': 'req_1' })
    expect(await keptOf(204, 'Content-Length', '0')).toEqual({})
  })

  it('gathers a JSON answer, an error event stream, and a stream that was not asked for', async () => {
    for (const [status, contentType, sink, kept] of [
      [200, 'application/json', recordingSink().sink, {}],
      [429, 'text/event-stream', recordingSink().sink, { 'retry-after': '3' }],
      [200, 'text/event-stream', undefined, {}],
    ] as const) {
      const exchange = new UpstreamExchange(sink, LIMITS)
      exchange.onHeaders(status, raw('content-type', contentType, 'Retry-After', '3'), resume)
      exchange.onData(Buffer.from('{"a":'))
      exchange.onData(Buffer.from('1}'))
      exchange.onComplete()
      const answer = await exchange.done
      expect(answer).toEqual({
        kind: 'buffered',
        status,
        headers: { 'content-type': contentType, ...kept },
        body: Buffer.from('{"a":1}'),
      })
    }
  })

  it('streams whatever 2xx answer a sink takes (speech audio) and gathers the rest', async () => {
    const audioOnly = async (status: number, contentType: string) => {
      const { sink, seen } = recordingSink()
      sink.takes = (type) => !type.includes('json')
      const exchange = new UpstreamExchange(sink, LIMITS)
      exchange.onHeaders(status, raw('Content-Type', contentType), resume)
      exchange.onData(Buffer.from('ID3'))
      exchange.onComplete()
      return { answer: (await exchange.done).kind, seen }
    }
    expect(await audioOnly(200, 'audio/mpeg')).toEqual({
      answer: 'streamed',
      seen: ['start 200', 'write ID3', 'end clean'],
    })
    for (const [status, contentType] of [
      [200, 'application/json'],
      [500, 'audio/mpeg'],
    ] as const) {
      expect(await audioOnly(status, contentType)).toEqual({ answer: 'buffered', seen: [] })
    }
  })

  it('reports a stream that broke off after it started as streamed, with the error', async () => {
    const { sink, seen } = recordingSink()
    const exchange = new UpstreamExchange(sink, LIMITS)
    exchange.onHeaders(200, raw('content-type', 'text/event-stream'), resume)
    exchange.onData(Buffer.from('data: 1\n\n'))
    exchange.onError(new Error('socket hang up'))
    const answer = await exchange.done
    expect(seen).toEqual(['start 200', 'write data: 1\n\n', 'end socket hang up'])
    expect(answer).toMatchObject({ kind: 'streamed', status: 200, brokeOff: { message: 'socket hang up' } })
    expect(answer.headers).toEqual({ 'content-type': 'text/event-stream' })
  })

  it('fails the call when the connection fails before an answer', async () => {
    const exchange = new UpstreamExchange(recordingSink().sink, LIMITS)
    exchange.onError(new Error('connect ECONNREFUSED'))
    await expect(exchange.done).rejects.toThrow('ECONNREFUSED')
  })

  it('does not pause the upstream once the sink has the whole answer, whatever its socket says', async () => {
    // A full client socket answered false; the client's response had ended and never drained, so
    // the upstream stayed paused before its body's end and its connection was cut a second later
    // instead of being used again.
    const sink: StreamSink = {
      start: () => {},
      write: () => false,
      end: () => {},
      complete: true,
    }
    const exchange = new UpstreamExchange(sink, LIMITS)
    exchange.onHeaders(200, raw('Content-Type', 'text/event-stream'), resume)
    expect(exchange.onData(Buffer.from('data: [DONE]\n\n'))).toBe(true)
    expect((await exchange.done).kind).toBe('streamed')
    exchange.onComplete()
  })

  it('fails a success whose request id or Content-Type Node could not pass on', async () => {
    for (const [name, value] of [
      ['X-Request-Id', 'req\u0001abc'],
      ['Content-Type', 'text/event-stream\rx'],
    ]) {
      const { sink, seen } = recordingSink()
      const exchange = new UpstreamExchange(sink, LIMITS)
      expect(() => exchange.onHeaders(200, raw(name!, value!), resume)).toThrow(
        `invalid ${name!.toLowerCase()} header`,
      )
      expect(seen).toEqual([])
    }
  })

  it('skips the interim 100, 102 and 103 heads, and fails on a 101 or any other 1xx', async () => {
    const { sink, seen } = recordingSink()
    const exchange = new UpstreamExchange(sink, LIMITS)
    for (const interim of [100, 102, 103])
      expect(exchange.onHeaders(interim, raw('Link', '</a>'), resume)).toBe(true)
    exchange.onHeaders(200, raw('Content-Type', 'text/event-stream'), resume)
    exchange.onData(Buffer.from('data: 1\n\n'))
    exchange.onComplete()
    expect((await exchange.done).status).toBe(200)
    expect(seen).toEqual(['start 200', 'write data: 1\n\n', 'end clean'])
    for (const status of [101, 150, 199]) {
      expect(() => new UpstreamExchange(undefined, LIMITS).onHeaders(status, raw(), resume)).toThrow(
        `the upstream answered ${status}, which is not a final answer`,
      )
    }
  })

  it('fails a gathered answer past maxBufferedBytes, with the code the relay maps to a 502', () => {
    const exchange = new UpstreamExchange(recordingSink().sink, { ...LIMITS, maxBufferedBytes: 10 })
    exchange.onHeaders(200, raw('Content-Type', 'application/json'), resume)
    exchange.onData(Buffer.from('{"a":'))
    expect(() => exchange.onData(Buffer.from('"123456"}'))).toThrow(
      expect.objectContaining({ code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' }),
    )
  })

  it('cuts a stream call at maxStreamMs: the sink hears the end as a break', async () => {
    const { sink, seen } = recordingSink()
    const exchange = new UpstreamExchange(sink, { ...LIMITS, maxStreamMs: 50 })
    let aborted: Error | undefined
    exchange.onConnect((reason) => {
      aborted = reason
      exchange.onError(reason!)
    })
    exchange.onHeaders(200, raw('Content-Type', 'text/event-stream'), resume)
    exchange.onData(Buffer.from('data: 1\n\n'))
    const answer = await exchange.done
    expect(aborted).toMatchObject({ code: 'RELAY_STREAM_TOO_LONG' })
    expect(answer).toMatchObject({ kind: 'streamed', brokeOff: { code: 'RELAY_STREAM_TOO_LONG' } })
    expect(seen.at(-1)).toContain('end the stream lasted longer than 0.05 s')
  })
})
