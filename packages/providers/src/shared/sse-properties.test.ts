import fc from 'fast-check'
import { describe, it } from 'vitest'
import { propertyRuns } from '../testing/property-runs.ts'
import { type SseEvent, SseParser } from './sse.ts'

function parse(pieces: Buffer[]): SseEvent[] {
  const events: SseEvent[] = []
  const parser = new SseParser((event) => events.push(event))
  for (const piece of pieces) parser.push(piece)
  parser.end()
  return events
}

/** Events as comparable text (cheaper than a deep comparison, which the runs would spend most on). */
const written = (events: SseEvent[]) => JSON.stringify(events.map(({ data, event }) => [data, event ?? null]))

/** `bytes` cut at the given positions (sorted, duplicates give empty pieces). */
function cutAt(bytes: Buffer, positions: number[]): Buffer[] {
  const cuts = [0, ...[...positions].sort((a, b) => a - b), bytes.length]
  return cuts.slice(1).map((end, index) => bytes.subarray(cuts[index], end))
}

/** Text of one line: anything but CR and LF, with the characters that matter to the format often. */
const lineText = fc
  .array(
    fc.oneof(
      fc.constantFrom(':', ' ', '{', '}', 'data', 'event', '[DONE]', 'é', '東', '🌸', '\uFEFF', '\t', '\0'),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join('').replace(/[\r\n]/g, ''))

/** True for data a lone line of which the parser dispatches early (see SseParser). */
const isCompletePayload = (data: string) => data === '[DONE]' || (data.startsWith('{') && data.endsWith('}'))

interface GeneratedEvent {
  comments: string[]
  name: string | undefined
  data: string[]
  /** Fields the parser ignores: id, retry, unknown names, names without a value. */
  ignored: string[]
}

const generatedEvent: fc.Arbitrary<GeneratedEvent> = fc.record({
  comments: fc.array(lineText, { maxLength: 2 }),
  name: fc.option(lineText, { nil: undefined }),
  // A data line that is a whole JSON object or [DONE] ends its event early (a leniency for
  // upstreams that leave out blank lines), so only events of one data line may have one.
  data: fc
    .array(lineText, { maxLength: 4 })
    .map((lines) =>
      lines.length > 1 ? lines.map((line) => (isCompletePayload(line) ? `x${line}` : line)) : lines,
    ),
  ignored: fc.array(fc.constantFrom('id: 7', 'id', 'retry: 1000', 'foo: bar', 'foo', 'Data: x', ' data: x'), {
    maxLength: 2,
  }),
})

/** A way to write each line: its field's spelling and its line end. */
interface Spelling {
  space: boolean
  bareField: boolean
  end: string
}
const spelling: fc.Arbitrary<Spelling> = fc.record({
  space: fc.boolean(),
  bareField: fc.boolean(),
  end: fc.constantFrom('\n', '\r', '\r\n'),
})

interface Stream {
  bytes: Buffer
  expected: SseEvent[]
}

/** Serialises events as an upstream might: any line ends, optional BOM, comments, ignored fields. */
function writeStream(events: GeneratedEvent[], spellings: Spelling[], bom: boolean): Stream {
  const lines: string[] = []
  const expected: SseEvent[] = []
  const field = (name: string, value: string, index: number) => {
    const how = spellings[index % spellings.length]!
    if (value === '' && how.bareField) return name
    // "name:value" is read the same only when the value does not start with a space.
    return how.space || value.startsWith(' ') ? `${name}: ${value}` : `${name}:${value}`
  }
  for (const event of events) {
    for (const comment of event.comments) lines.push(`:${comment}`)
    if (event.name !== undefined) lines.push(field('event', event.name, lines.length))
    for (const ignored of event.ignored) lines.push(ignored)
    for (const data of event.data) lines.push(field('data', data, lines.length))
    lines.push('')
    if (event.data.length > 0) expected.push({ data: event.data.join('\n'), event: event.name || undefined })
  }
  let text = bom ? '\uFEFF' : ''
  let previousEnd = ''
  lines.forEach((line, index) => {
    let end = spellings[index % spellings.length]!.end
    // CR then an empty line ended by LF would read as one CRLF: the writer avoids that, as any must.
    if (previousEnd === '\r' && line === '' && end.startsWith('\n')) end = '\r'
    text += line + end
    previousEnd = end
  })
  return { bytes: Buffer.from(text), expected }
}

const stream = fc
  .tuple(
    fc.array(generatedEvent, { maxLength: 5 }),
    fc.array(spelling, { minLength: 1, maxLength: 8 }),
    fc.boolean(),
  )
  .map(([events, spellings, bom]) => writeStream(events, spellings, bom))

describe('SseParser properties', () => {
  it('reads the events written, whatever their line ends, spellings, comments and ignored fields', () => {
    fc.assert(
      fc.property(stream, ({ bytes, expected }) => {
        return written(parse([bytes])) === written(expected)
      }),
      propertyRuns(2000),
    )
  })

  it('gives the same events for every single split point', () => {
    fc.assert(
      fc.property(stream, ({ bytes, expected }) => {
        const whole = written(expected)
        for (let cut = 0; cut <= bytes.length; cut++)
          if (written(parse(cutAt(bytes, [cut]))) !== whole) return false
        return true
      }),
      propertyRuns(300),
    )
  })

  it('gives the same events for random cuts into many pieces, empty pieces included', () => {
    const cutStream = stream.chain((written) =>
      fc.tuple(fc.constant(written), fc.array(fc.nat({ max: written.bytes.length }), { maxLength: 20 })),
    )
    fc.assert(
      fc.property(cutStream, ([{ bytes, expected }, cuts]) => {
        return written(parse(cutAt(bytes, cuts))) === written(expected)
      }),
      propertyRuns(2000),
    )
  })

  it('dispatches each whole JSON object or [DONE] on its own when the blank lines are left out', () => {
    const payload = fc.oneof(
      fc.constant('[DONE]'),
      fc
        .dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string(), fc.integer()))
        .map((value) => JSON.stringify(value)),
    )
    const written = fc.tuple(
      fc.array(payload, { minLength: 1, maxLength: 6 }),
      fc.constantFrom('\n', '\r', '\r\n'),
    )
    fc.assert(
      fc.property(written, fc.array(fc.nat(), { maxLength: 6 }), ([payloads, end], cuts) => {
        const bytes = Buffer.from(payloads.map((data) => `data: ${data}${end}`).join(''))
        const pieces = cutAt(
          bytes,
          cuts.map((cut) => cut % (bytes.length + 1)),
        )
        return JSON.stringify(parse(pieces).map((event) => event.data)) === JSON.stringify(payloads)
      }),
      propertyRuns(1000),
    )
  })
})
