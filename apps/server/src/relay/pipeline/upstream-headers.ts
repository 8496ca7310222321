/**
 * Reading an upstream answer's head as undici hands it to a dispatch handler: status, then names
 * and values as raw bytes (latin1, one character a byte, so a value passes on unchanged).
 */

/** An answer the relay will not pass on: the call fails (and another channel may serve it). */
export class InvalidUpstreamAnswer extends Error {
  readonly code = 'UPSTREAM_INVALID_ANSWER'
}

/** Control characters a field value may not hold (tab may), as Node's own check has it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const NOT_IN_FIELD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/

/** Whether a header value may be used and passed on (Node refuses to write the others). */
export const isFieldValue = (value: string): boolean => !NOT_IN_FIELD_VALUE.test(value)

/** Whether a header name is `lowerName` (lower-case ASCII), in any case, without decoding it. */
export function headerNameIs(name: Buffer, lowerName: string): boolean {
  if (name.length !== lowerName.length) return false
  for (let index = 0; index < lowerName.length; index++) {
    // ASCII letters differ from their capitals by 0x20 alone; '-' has that bit set already.
    if ((name[index]! | 0x20) !== lowerName.charCodeAt(index)) return false
  }
  return true
}

/**
 * The 1xx answers that may come before the final one and carry nothing the relay needs
 * (100 Continue, 102 Processing, 103 Early Hints): they are skipped. undici itself refuses a 100
 * the request did not ask for (none of ours sends `Expect: 100-continue`) and a 101 (no call
 * asks to switch protocols): both fail the call.
 */
const INTERIM = new Set([100, 102, 103])

/**
 * Whether `status` is an interim answer to skip. Any other 1xx (a 101, an unassigned 1xx) is not
 * an answer the relay can pass on: it throws, and the call fails as an upstream error.
 */
export function isInterim(status: number): boolean {
  if (status >= 200) return false
  if (INTERIM.has(status)) return true
  throw new InvalidUpstreamAnswer(`the upstream answered ${status}, which is not a final answer`)
}
