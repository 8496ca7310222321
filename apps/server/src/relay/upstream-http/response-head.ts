/**
 * The head of an HTTP/1.1 response (RFC 9112 §4-6), read from its text: latin1, one character a
 * byte, without its closing blank line. One pass line by line: no split, and no regular
 * expression but for the rare framing values. Lines end at CRLF; a bare CR or LF inside a line
 * is part of its value, which isFieldValue refuses where a value is used.
 */

/** A response the client cannot read: the connection must be closed. */
export class ResponseParseError extends Error {
  readonly code = 'UPSTREAM_HTTP_PARSE_ERROR'
}

export interface ResponseHead {
  status: number
  /** name, value, name, value... as sent (names in their own case). */
  rawHeaders: string[]
  /** -1: none given; -2: a transfer coding other than chunked (the body ends with the connection). */
  contentLength: number
  chunked: boolean
  /** Whether the connection may carry another request (HTTP/1.1 unless `close`; 1.0 if `keep-alive`). */
  keepAlive: boolean
  /** The keep-alive time the upstream announced (`Keep-Alive: timeout=N`), in ms; 0 when none. */
  keepAliveHintMs: number
}

const SPACE = 0x20
const CR = 0x0d
const isWhitespace = (code: number): boolean => code === SPACE || code === 0x09

/** Control characters a field value may not hold (tab may), as Node's and undici's checks have it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const NOT_IN_FIELD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/

/**
 * Whether a header value may be used and passed on. Values are checked where they are used, not
 * while the head is read: a head holds twenty-odd values the gateway never looks at, and scanning
 * them all cost more than the rest of the head's reading (1.8 µs for OpenAI's).
 */
export const isFieldValue = (value: string): boolean => !NOT_IN_FIELD_VALUE.test(value)

/** The decimal digit at `index`, or NaN. */
function digit(text: string, index: number): number {
  const value = text.charCodeAt(index) - 0x30
  return value >= 0 && value <= 9 ? value : Number.NaN
}

/** Whether a header name is `lowerName` (lower-case ASCII), in any case, without a lower-cased copy. */
export function headerNameIs(name: string, lowerName: string): boolean {
  if (name.length !== lowerName.length) return false
  for (let index = 0; index < lowerName.length; index++) {
    // ASCII letters differ from their capitals by 0x20 alone; '-' has that bit set already.
    if ((name.charCodeAt(index) | 0x20) !== lowerName.charCodeAt(index)) return false
  }
  return true
}

/** Reads a response head; throws ResponseParseError for one that cannot be trusted. */
export function parseHead(text: string): ResponseHead {
  let keepAliveHintMs = 0
  // "HTTP/1.1 200 OK": the version, a space, three digits, then the (ignored) reason.
  if (!text.startsWith('HTTP/1.') || text.length < 12 || text.charCodeAt(8) !== SPACE) {
    throw new ResponseParseError('malformed status line')
  }
  const status = digit(text, 9) * 100 + digit(text, 10) * 10 + digit(text, 11)
  if (
    !(status >= 100) ||
    !(text.length === 12 || text.charCodeAt(12) === SPACE || text.charCodeAt(12) === CR)
  ) {
    throw new ResponseParseError('malformed status line')
  }
  const http10 = text.charCodeAt(7) === 0x30
  const rawHeaders: string[] = []
  let contentLength = -1
  let chunked = false
  let connection = ''
  let lineStart = text.indexOf('\r\n') + 2
  if (lineStart === 1) lineStart = text.length
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\r\n', lineStart)
    if (lineEnd === -1) lineEnd = text.length
    const colon = text.indexOf(':', lineStart)
    // A line without a name, one folded onto the line before (obsolete, RFC 9112 §5.2), or a
    // name with whitespace before its colon (§5.1: to be refused, it misleads some readers).
    if (
      colon <= lineStart ||
      colon > lineEnd ||
      isWhitespace(text.charCodeAt(lineStart)) ||
      isWhitespace(text.charCodeAt(colon - 1))
    ) {
      throw new ResponseParseError('malformed header line')
    }
    let valueStart = colon + 1
    let valueEnd = lineEnd
    while (valueStart < valueEnd && isWhitespace(text.charCodeAt(valueStart))) valueStart += 1
    while (valueEnd > valueStart && isWhitespace(text.charCodeAt(valueEnd - 1))) valueEnd -= 1
    const name = text.slice(lineStart, colon)
    const value = text.slice(valueStart, valueEnd)
    rawHeaders.push(name, value)
    lineStart = lineEnd + 2
    switch (name.length) {
      case 14:
        if (headerNameIs(name, 'content-length')) {
          if (!/^\d{1,15}$/.test(value)) throw new ResponseParseError('invalid Content-Length')
          const length = Number(value)
          if (contentLength !== -1 && contentLength !== length)
            throw new ResponseParseError('conflicting Content-Length headers')
          contentLength = length
        }
        break
      case 17:
        if (headerNameIs(name, 'transfer-encoding')) {
          // Chunked must be the last coding; anything else is read until the connection closes.
          chunked = /(^|,)\s*chunked$/i.test(value)
          if (!chunked) contentLength = -2
        }
        break
      case 10:
        if (headerNameIs(name, 'connection')) connection += `${value.toLowerCase()},`
        else if (headerNameIs(name, 'keep-alive')) {
          const timeout = /timeout\s*=\s*(\d+)/i.exec(value)
          if (timeout) keepAliveHintMs = Number(timeout[1]) * 1000
        }
        break
    }
  }
  const keepAlive = http10 ? connection.includes('keep-alive') : !connection.includes('close')
  return { status, rawHeaders, contentLength, chunked, keepAlive, keepAliveHintMs }
}
