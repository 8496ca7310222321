import { describe, expect, it } from 'vitest'
import { type SseEvent, SseParser } from './sse.ts'

function parseAll(pieces: Buffer[]): SseEvent[] {
  const events: SseEvent[] = []
  const parser = new SseParser((event) => events.push(event))
  for (const piece of pieces) parser.push(piece)
  parser.end()
  return events
}

const splitAt = (bytes: Buffer, ...positions: number[]): Buffer[] => {
  const cuts = [0, ...positions, bytes.length]
  return cuts.slice(1).map((end, index) => bytes.subarray(cuts[index], end))
}

describe('SseParser', () => {
  const stream = Buffer.from(
    ': keep-alive\n\nevent: delta\ndata: {"text":"Grüße 東京 🌸"}\n\ndata:{"n":2}\r\n\r\ndata: [DONE]\n\n',
  )
  const expected = [
    { data: '{"text":"Grüße 東京 🌸"}', event: 'delta' },
    { data: '{"n":2}', event: undefined },
    { data: '[DONE]', event: undefined },
  ]

  it('reads events, comments, event names, CRLF and data with or without the space', () => {
    expect(parseAll([stream])).toEqual(expected)
  })

  it('gives the same events however the bytes are split, even inside multi-byte characters', () => {
    for (let first = 1; first < stream.length; first += 1) {
      expect(parseAll(splitAt(stream, first))).toEqual(expected)
    }
    expect(parseAll([...stream].map((byte) => Buffer.from([byte])))).toEqual(expected)
  })

  it('handles a CR at the end of one chunk and its LF at the start of the next', () => {
    const crlf = Buffer.from('data: a\r\n\r\ndata: b\r\n\r\n')
    expect(parseAll(splitAt(crlf, 8, 9, 10)).map((event) => event.data)).toEqual(['a', 'b'])
    expect(parseAll([Buffer.from('data: a\r\rdata: b\r\r')]).map((event) => event.data)).toEqual(['a', 'b'])
    // A lost CRLF pairing would read an extra blank line and split this two-line event in two.
    const multiLine = Buffer.from('data: a\r\ndata: b\r\n\r\n')
    expect(parseAll(splitAt(multiLine, 8)).map((event) => event.data)).toEqual(['a\nb'])
  })

  it('reads lines far longer than 64 KiB', () => {
    const long = 'x'.repeat(300_000)
    const bytes = Buffer.from(`data: {"content":"${long}"}\n\n`)
    const events = parseAll(splitAt(bytes, 1000, 70_000, 200_000))
    expect(events).toHaveLength(1)
    expect(events[0].data.length).toBe(long.length + 14)
  })

  it('joins multi-line data as SSE says but splits complete JSON events missing their blank line', () => {
    expect(parseAll([Buffer.from('data: line one\ndata: line two\n\n')])[0].data).toBe('line one\nline two')
    expect(
      parseAll([Buffer.from('data: {"a":1}\ndata: {"b":2}\ndata: [DONE]\n')]).map((e) => e.data),
    ).toEqual(['{"a":1}', '{"b":2}', '[DONE]'])
  })

  it('skips a byte order mark that opens the stream, even split across chunks', () => {
    // Found by the property tests: the mark hid the first line's field name.
    const stream = Buffer.from('\uFEFFevent: delta\ndata: x\n\n')
    const expected = [{ data: 'x', event: 'delta' }]
    expect(parseAll([stream])).toEqual(expected)
    expect(parseAll(splitAt(stream, 1, 2))).toEqual(expected)
    // Only at the start: later it is an ordinary character of a line.
    expect(parseAll([Buffer.from('data: a\n\n\uFEFFdata: b\n\n')])).toEqual([{ data: 'a', event: undefined }])
  })

  it('joins data lines that only together look like one JSON object, as the standard says', () => {
    // Found by the property tests: "{" and "}" on two lines read as a whole object, so the third
    // line was cut off into an event of its own.
    expect(parseAll([Buffer.from('data:{\ndata:}\ndata:\n\n')])).toEqual([
      { data: '{\n}\n', event: undefined },
    ])
  })

  it('reads an empty event name as no name', () => {
    expect(parseAll([Buffer.from('event:\ndata: x\n\n')])).toEqual([{ data: 'x', event: undefined }])
  })

  it('dispatches a final event that has no trailing newline', () => {
    expect(parseAll([Buffer.from('data: {"last":true}')]).map((event) => event.data)).toEqual([
      '{"last":true}',
    ])
  })
})
