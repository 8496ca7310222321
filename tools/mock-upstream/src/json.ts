/** A parsed JSON object: members by name, their values not yet checked. */
export type Json = Record<string, unknown>

/** Whether a parsed JSON value is an object (not null, not an array). */
export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
