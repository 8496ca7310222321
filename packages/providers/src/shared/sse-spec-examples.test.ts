import { describe, expect, it } from 'vitest'
import { type SseEvent, SseParser } from './sse.ts'

/** Every event of `text`, fed whole and then one byte at a time (both must agree). */
function eventsOf(text: string): SseEvent[] {
  const read = (pieces: Buffer[]) => {
    const events: SseEvent[] = []
    const parser = new SseParser((event) => events.push(event))
    for (const piece of pieces) parser.push(piece)
    parser.end()
    return events
  }
  const bytes = Buffer.from(text)
  const whole = read([bytes])
  expect(read([...bytes].map((byte) => Buffer.from([byte])))).toEqual(whole)
  return whole
}

const message = (data: string, event?: string): SseEvent => ({ data, event })

/**
 * The event streams the WHATWG HTML standard gives as examples (Server-sent events: the
 * introduction, interpreting an event stream, authoring notes), with the events the standard
 * says they fire. https://html.spec.whatwg.org/multipage/server-sent-events.html
 */
describe('SseParser on the examples of the SSE standard', () => {
  it('fires one event per blank-line-terminated block, joining its data lines with LF', () => {
    const stream =
      'data: This is the first message.\n\n' +
      'data: This is the second message, it\n' +
      'data: has two lines.\n\n' +
      'data: This is the third message.\n\n'
    expect(eventsOf(stream)).toEqual([
      message('This is the first message.'),
      message('This is the second message, it\nhas two lines.'),
      message('This is the third message.'),
    ])
  })

  it('names events with the event field', () => {
    const stream = 'event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n'
    expect(eventsOf(stream)).toEqual([
      message('73857293', 'add'),
      message('2153', 'remove'),
      message('113411', 'add'),
    ])
  })

  it('reads a multi-line block as one event (the stock ticker)', () => {
    expect(eventsOf('data: YHOO\ndata: +2\ndata: 10\n\n')).toEqual([message('YHOO\n+2\n10')])
  })

  it('skips comments, ignores id fields (with or without a value) and strips only one space', () => {
    const stream =
      ': test stream\n\n' +
      'data: first event\nid: 1\n\n' +
      'data:second event\nid\n\n' +
      'data:  third event\n\n'
    expect(eventsOf(stream)).toEqual([
      message('first event'),
      message('second event'),
      message(' third event'),
    ])
  })

  it('fires empty data for a field without a colon, and a lone LF for two of them', () => {
    // The last block, which no blank line ends, is discarded as the standard says (only a whole
    // JSON object or [DONE] is delivered without its blank line).
    expect(eventsOf('data\n\ndata\ndata\n\ndata:')).toEqual([message(''), message('\n')])
  })

  it('treats "data:test" and "data: test" alike', () => {
    expect(eventsOf('data:test\n\ndata: test\n\n')).toEqual([message('test'), message('test')])
  })

  it('accepts CR, LF and CRLF line ends, and a comment sent to keep the connection open', () => {
    expect(eventsOf(':\r\ndata: a\r\rdata: b\n\ndata: c\r\n\r\n')).toEqual([
      message('a'),
      message('b'),
      message('c'),
    ])
  })
})
