import { UpstreamSocketError } from './upstream-connection.ts'

/** A header name is a token (RFC 9110 §5.1). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** A value may hold anything but the bytes that would end the line or the head (§5.5). */
const FORBIDDEN_IN_VALUE = /[\r\n\0]/
/** A request target: visible latin1 characters only, as undici requires (no space, no line break). */
const INVALID_PATH = /[^\u0021-\u00ff]/
/** Fields the client writes itself, from the call's own facts. */
const OWN_FIELDS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive'])

/**
 * The head of an HTTP/1.1 request, as one latin1 string. Header values come partly from clients
 * (a multipart boundary) and from channel settings, so each is checked: a line break in one would
 * let it write headers, or a second request, of its own.
 */
export function requestHead(
  method: string,
  path: string,
  hostHeader: string,
  headers: Record<string, string>,
  bodyLength: number | undefined,
): string {
  if (path[0] !== '/' || INVALID_PATH.test(path)) {
    throw new UpstreamSocketError('invalid request path', 'UND_ERR_INVALID_ARG')
  }
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${hostHeader}\r\nconnection: keep-alive\r\n`
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined) continue
    if (!TOKEN.test(name) || FORBIDDEN_IN_VALUE.test(value)) {
      throw new UpstreamSocketError(`invalid request header ${JSON.stringify(name)}`, 'UND_ERR_INVALID_ARG')
    }
    if (OWN_FIELDS.has(name.toLowerCase())) continue
    head += `${name}: ${toLatin1(value)}\r\n`
  }
  if (bodyLength !== undefined) head += `content-length: ${bodyLength}\r\n`
  return `${head}\r\n`
}

/**
 * Header values beyond latin1 are sent as their UTF-8 bytes, as undici and Node's own client send
 * them (the head is written as latin1, one byte per character).
 */
function toLatin1(value: string): string {
  for (let index = 0; index < value.length; index++) {
    if (value.charCodeAt(index) > 0xff) return Buffer.from(value, 'utf8').toString('latin1')
  }
  return value
}
