import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Json, jsonDocument, jsonValue } from '../testing/json-arbitrary.ts'
import { propertyRuns } from '../testing/property-runs.ts'
import { objectEnd, objectsHeldBy, stringValuesOf } from './json-scan.ts'

const HELD_BY = ['usage', 'error']
const TEXT_KEYS = ['content', 'text']

/** In document order, the values held by any of `keys` that `keep` accepts. */
function heldValues(value: Json, keys: string[], keep: (held: Json) => boolean): Json[] {
  const found: Json[] = []
  const walk = (node: Json) => {
    if (Array.isArray(node)) for (const item of node) walk(item)
    else if (node !== null && typeof node === 'object') {
      for (const [name, item] of Object.entries(node)) {
        if (keys.includes(name) && keep(item)) found.push(item)
        walk(item)
      }
    }
  }
  walk(value)
  return found
}

const isObject = (value: Json) => value !== null && typeof value === 'object' && !Array.isArray(value)

const document = jsonDocument(jsonValue)

/** The objects held by each of HELD_BY that the scanner reports, parsed ('cut' for one it cannot end). */
function scannedObjects(bytes: Buffer, end = bytes.length): unknown[][] {
  const positions = objectsHeldBy(bytes.toString('latin1', 0, end), HELD_BY)
  return positions.map((starts) =>
    starts.map((start) => {
      const close = objectEnd(bytes, start, end)
      return close === -1 ? 'cut' : JSON.parse(bytes.toString('utf8', start, close))
    }),
  )
}

describe('JSON scan properties', () => {
  it('finds exactly the objects held by the keys, in order, each ending where JSON.parse agrees', () => {
    fc.assert(
      fc.property(document, ({ value, bytes }) => {
        const expected = HELD_BY.map((name) => heldValues(value, [name], isObject))
        expect(scannedObjects(bytes)).toEqual(expected)
      }),
      propertyRuns(3000),
    )
  })

  it('reads exactly the string values of the keys, in order, decoded as JSON.parse decodes them', () => {
    fc.assert(
      fc.property(document, ({ value, bytes }) => {
        const expected = heldValues(value, TEXT_KEYS, (held) => typeof held === 'string')
        const keys = TEXT_KEYS.map((name) => Buffer.from(name))
        expect(stringValuesOf(bytes, 0, bytes.length, keys)).toEqual(expected)
      }),
      propertyRuns(3000),
    )
  })

  it('on a text cut anywhere, claims only what the whole text holds: a cut object is never given an end', () => {
    const cutDocument = document.chain((whole) =>
      fc.tuple(fc.constant(whole), fc.nat({ max: whole.bytes.length })),
    )
    fc.assert(
      fc.property(cutDocument, ([{ bytes }, cut]) => {
        const whole = scannedObjects(bytes)
        const part = scannedObjects(bytes, cut)
        part.forEach((objects, which) => {
          objects.forEach((object, index) => {
            if (object !== 'cut') expect(object).toEqual(whole[which]![index])
          })
          expect(objects.length).toBeLessThanOrEqual(whole[which]!.length)
        })
        const keys = TEXT_KEYS.map((name) => Buffer.from(name))
        const wholeTexts = stringValuesOf(bytes, 0, bytes.length, keys)
        const partTexts = stringValuesOf(bytes, 0, cut, keys)
        expect(wholeTexts.slice(0, partTexts.length)).toEqual(partTexts)
      }),
      propertyRuns(3000),
    )
  })

  it('never throws on text that is not JSON, and every object it ends is balanced and closed', () => {
    const noise = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            '"usage":',
            '"error" :',
            '{',
            '}',
            '"',
            '\\',
            '"content":"',
            'data: ',
            '\n\n',
            '[',
            ']',
          ),
          fc.string({ maxLength: 4 }),
        ),
        { maxLength: 20 },
      )
      .map((parts) => Buffer.from(parts.join('')))
    fc.assert(
      fc.property(noise, (bytes) => {
        const positions = objectsHeldBy(bytes.toString('latin1'), HELD_BY)
        for (const start of positions.flat()) {
          expect(bytes[start]).toBe(0x7b)
          const close = objectEnd(bytes, start, bytes.length)
          if (close !== -1) {
            expect(close).toBeGreaterThan(start)
            expect(bytes[close - 1]).toBe(0x7d)
          }
        }
        for (const text of stringValuesOf(bytes, 0, bytes.length, [Buffer.from('content')])) {
          expect(typeof text).toBe('string')
        }
      }),
      propertyRuns(3000),
    )
  })
})
