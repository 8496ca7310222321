import { describe, expect, it } from 'vitest'
import { ResponseParseError } from './response-head.ts'
import { ResponseParser } from './response-parser.ts'

/** What a parser told its sink, for one response fed in the pieces given. */
function parse(pieces: Array<string | Buffer>, options: { method?: string; pauseEvery?: boolean } = {}) {
  const heads: Array<{ status: number; headers: string[] }> = []
  const body: Buffer[] = []
  const ends: boolean[] = []
  const parser = new ResponseParser(
    {
      onHead: (status, headers) => {
        heads.push({ status, headers })
        return true
      },
      onBody: (piece) => {
        body.push(Buffer.from(piece))
        return !options.pauseEvery
      },
      onEnd: (reusable) => void ends.push(reusable),
    },
    options.method ?? 'POST',
  )
  for (const piece of pieces) {
    parser.feed(Buffer.from(piece))
    while (options.pauseEvery && parser.isPaused) parser.resume()
  }
  return { parser, heads, body: Buffer.concat(body).toString('latin1'), ends }
}

/** The response cut at every position into two pieces, and into single bytes. */
function everySplit(response: string): string[][] {
  const splits: string[][] = [[...response]]
  for (let at = 1; at < response.length; at++) splits.push([response.slice(0, at), response.slice(at)])
  return splits
}

const CHUNKED =
  'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n' +
  '9\r\ndata: 1\n\n\r\n' +
  'a;ext=1\r\ndata: 22\n\n\r\n' +
  '0\r\nX-Trailer: t\r\n\r\n'

describe('ResponseParser', () => {
  it('reads a Content-Length body, and the connection stays reusable', () => {
    const { heads, body, ends } = parse(['HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhello'])
    expect(heads).toEqual([{ status: 200, headers: ['Content-Length', '5', 'X-A', 'b'] }])
    expect(body).toBe('hello')
    expect(ends).toEqual([true])
  })

  it('reads a chunked body with extensions and trailers the same, however the bytes are split', () => {
    for (const pieces of everySplit(CHUNKED)) {
      const { heads, body, ends } = parse(pieces)
      expect(heads.map((head) => head.status)).toEqual([200])
      expect(body).toBe('data: 1\n\ndata: 22\n\n')
      expect(ends).toEqual([true])
    }
  })

  it('pauses when the sink asks, keeps what was fed meanwhile, and goes on in order on resume', () => {
    for (const pieces of everySplit(CHUNKED).slice(0, 40)) {
      const { body, ends } = parse(pieces, { pauseEvery: true })
      expect(body).toBe('data: 1\n\ndata: 22\n\n')
      expect(ends).toEqual([true])
    }
    const fixed = parse(['HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nab', 'cd', 'ef'], { pauseEvery: true })
    expect(fixed.body).toBe('abcdef')
    expect(fixed.ends).toEqual([true])
  })

  it('stops after the head when the sink asks, keeping the body that came with it', () => {
    const body: string[] = []
    const parser = new ResponseParser(
      {
        onHead: () => false,
        onBody: (piece) => {
          body.push(piece.toString())
          return true
        },
        onEnd: () => {},
      },
      'POST',
    )
    parser.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'))
    expect(parser.isPaused).toBe(true)
    expect(body).toEqual([])
    parser.resume()
    expect(body).toEqual(['hello'])
    expect(parser.done).toBe(true)
  })

  it('reads whitespace and extensions after a chunk size', () => {
    const { body, ends } = parse([
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 ;a=b\r\nok\r\n0\r\n\r\n',
    ])
    expect(body).toBe('ok')
    expect(ends).toEqual([true])
  })

  it('skips interim 1xx heads and reads the final one', () => {
    const { heads, body } = parse([
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n',
      'HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
    ])
    expect(heads.map((head) => head.status)).toEqual([201])
    expect(body).toBe('ok')
  })

  it('reads no body for 204, 304 and HEAD, whatever the head says', () => {
    expect(parse(['HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n']).ends).toEqual([true])
    expect(parse(['HTTP/1.1 304 Not Modified\r\n\r\n']).ends).toEqual([true])
    const head = parse(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n'], { method: 'HEAD' })
    expect(head.ends).toEqual([true])
    expect(head.body).toBe('')
  })

  it('closes after Connection: close, and after HTTP/1.0 unless it asks to keep alive', () => {
    expect(parse(['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n']).ends).toEqual([false])
    expect(parse(['HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n']).ends).toEqual([false])
    expect(parse(['HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n']).ends).toEqual([
      true,
    ])
  })

  it('reads a body without framing until the connection closes', () => {
    const { parser, body, ends } = parse(['HTTP/1.1 200 OK\r\n\r\nall of ', 'it'])
    expect(ends).toEqual([])
    expect(parser.endsWithClose).toBe(true)
    expect(parser.close()).toBe(true)
    expect(body).toBe('all of it')
    expect(ends).toEqual([false])
  })

  it('reports a body cut by the close as incomplete', () => {
    const { parser, ends } = parse(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'])
    expect(parser.close()).toBe(false)
    expect(ends).toEqual([])
  })

  it('prefers chunked over Content-Length, and then does not reuse the connection', () => {
    const { body, ends } = parse([
      'HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    ])
    expect(body).toBe('ok')
    expect(ends).toEqual([false])
  })

  it('does not reuse a connection that sent bytes after its answer', () => {
    const { ends } = parse(['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n'])
    expect(ends).toEqual([false])
  })

  it('reads the keep-alive time the upstream announces', () => {
    const { parser } = parse([
      'HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100\r\nContent-Length: 0\r\n\r\n',
    ])
    expect(parser.keepAliveHintMs).toBe(5000)
  })

  it.each([
    ['a status line that is not HTTP/1.x', 'HTTP/2 200 OK\r\n\r\n'],
    ['a status that is not three digits', 'HTTP/1.1 2x0 OK\r\n\r\n'],
    ['a header line without a name', 'HTTP/1.1 200 OK\r\n: x\r\n\r\n'],
    ['a head whose lines end in bare LFs', 'HTTP/1.1 200 OK\nContent-Length: 0\n\n'],
    ['whitespace between a header name and its colon', 'HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n'],
    ['a chunk size followed by a word', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1a x\r\n'],
    ['a header folded onto the line before', 'HTTP/1.1 200 OK\r\nX-A: b\r\n c: d\r\n\r\n'],
    ['a Content-Length that is not a number', 'HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n'],
    ['two different Content-Lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'],
    ['a chunk size that is not hex', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['a chunk size followed by other bytes', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1g\r\n'],
    [
      'a chunk size of more than 13 hex digits',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000\r\n',
    ],
    ['chunk data longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n'],
    ['a head beyond 16 KiB', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`],
  ])('refuses %s', (_name, response) => {
    expect(() => parse([response])).toThrow(ResponseParseError)
  })
})
