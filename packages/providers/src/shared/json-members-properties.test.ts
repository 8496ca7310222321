import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonDocument, jsonKey, jsonObject, jsonValue } from '../testing/json-arbitrary.ts'
import { propertyRuns } from '../testing/property-runs.ts'
import { withMembers } from './json-members.ts'

describe('withMembers properties', () => {
  it('gives the object JSON.parse reads with the members set, whatever the body looks like', () => {
    const edits = fc.dictionary(jsonKey, jsonValue, { maxKeys: 3 })
    fc.assert(
      fc.property(jsonDocument(jsonObject), edits, ({ value, bytes }, members) => {
        const texts = Object.fromEntries(
          Object.entries(members).map(([name, item]) => [name, JSON.stringify(item)]),
        )
        const edited = withMembers(bytes, texts)
        expect(edited).toBeDefined()
        const expected: Record<string, unknown> = JSON.parse(JSON.stringify(value))
        for (const [name, text] of Object.entries(texts)) expected[name] = JSON.parse(text)
        expect(JSON.parse(edited!.toString('utf8'))).toEqual(expected)
      }),
      propertyRuns(3000),
    )
  })

  it('leaves a body it does not change byte for byte as it was', () => {
    fc.assert(
      fc.property(jsonDocument(jsonObject), ({ bytes }) => {
        expect(withMembers(bytes, {})?.equals(bytes)).toBe(true)
      }),
      propertyRuns(2000),
    )
  })

  it('refuses what is not one whole JSON object instead of guessing', () => {
    const cutDocument = jsonDocument(jsonObject).chain((whole) =>
      fc.tuple(fc.constant(whole.bytes), fc.nat({ max: Math.max(0, whole.bytes.length - 1) })),
    )
    fc.assert(
      fc.property(cutDocument, ([bytes, cut]) => {
        const part = bytes.subarray(0, cut)
        let parses = true
        try {
          JSON.parse(part.toString('utf8'))
        } catch {
          parses = false
        }
        if (!parses) expect(withMembers(part, { model: '"m"' })).toBeUndefined()
      }),
      propertyRuns(3000),
    )
  })
})
