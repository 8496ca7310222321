import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { propertyRuns } from '../testing/property-runs.ts'
import { NOT_SCANNED, normaliseUsage, scanUsage } from './usage.ts'

const count = fc.oneof(
  fc.nat(),
  fc.constantFrom(0, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, 9e18, 1e19, 1.5, -1),
  fc.constant(null),
  fc.bigInt({ min: 0n, max: 10n ** 25n }).map((value) => `#${value}`),
)
const usageKey = fc.constantFrom(
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'prompt_tokens_details',
  'completion_tokens_details',
  'cached_tokens',
  'reasoning_tokens',
  'other',
)
const { usage } = fc.letrec<{ usage: Record<string, unknown> }>((tie) => ({
  usage: fc.dictionary(usageKey, fc.oneof({ depthSize: 'small' }, count, tie('usage')), { maxKeys: 6 }),
}))

/** `#digits` stands for an integer too long for a double, written as its digits. */
const write = (value: unknown, space: string): string =>
  JSON.stringify(value, null, space).replace(/"#(\d+)"/g, '$1')

describe('usage scan properties', () => {
  it('reads a usage object as normaliseUsage(JSON.parse(...)) does, or leaves it to JSON.parse', () => {
    let read = 0
    fc.assert(
      fc.property(usage, fc.constantFrom('', ' ', '\t'), (value, space) => {
        const text = write(value, space)
        const bytes = Buffer.from(`{"usage":${text}}`)
        const scanned = scanUsage(bytes, 9, bytes.length)
        if (scanned === NOT_SCANNED) return
        read += 1
        expect(scanned).toEqual(normaliseUsage(JSON.parse(text)))
      }),
      propertyRuns(3000),
    )
    // A good share of the generated objects have the usual shape: the scanner reads them itself.
    expect(read).toBeGreaterThan(500)
  })
})
