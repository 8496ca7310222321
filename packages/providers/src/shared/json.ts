/** A parsed JSON object: members by name, their values not yet checked. */
export type Json = Record<string, unknown>

/** Whether a parsed JSON value is an object (not null, not an array). */
export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A count an upstream reported (tokens, a code): a finite number at or above 0, floored; undefined otherwise. */
export const countOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined

/** countOf, with 0 for a count that is absent or not a count. */
export const countOrZero = (value: unknown): number => countOf(value) ?? 0

/** Text (or UTF-8 bytes) parsed as a JSON object; undefined for invalid JSON or another value. */
export function parseJsonObject(text: Buffer | string): Json | undefined {
  try {
    const value: unknown = JSON.parse(typeof text === 'string' ? text : text.toString('utf8'))
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}
