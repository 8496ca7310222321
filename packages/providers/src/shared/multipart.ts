/**
 * Replaces the value of one text field in a multipart/form-data body without touching the other
 * parts (the audio file stays byte-for-byte as sent). Used to apply model mapping to audio uploads.
 * https://www.rfc-editor.org/rfc/rfc7578
 */

export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return undefined
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  return match ? (match[1] ?? match[2]) : undefined
}

/** Where the value of text field `name` lies in a multipart/form-data body, if it has one. */
function findTextField(
  body: Buffer,
  contentType: string | undefined,
  name: string,
): { start: number; end: number } | undefined {
  const boundary = multipartBoundary(contentType)
  if (!boundary) return undefined
  const delimiter = Buffer.from(`--${boundary}`)
  const headerEnd = Buffer.from('\r\n\r\n')
  let partStart = body.indexOf(delimiter)
  while (partStart !== -1) {
    const headersStart = partStart + delimiter.length + 2 // skip the CRLF after the delimiter
    const headersEnd = body.indexOf(headerEnd, headersStart)
    if (headersEnd === -1) return undefined
    const nextDelimiter = body.indexOf(delimiter, headersEnd)
    if (nextDelimiter === -1) return undefined
    const headers = body.toString('latin1', headersStart, headersEnd)
    // Header names are case-insensitive, field names are not (RFC 7578): a "Model" field is not
    // the model the upstream reads.
    const disposition = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)
    const isFile = /filename=/i.test(headers)
    if (disposition?.[1] === name && !isFile) {
      // The CRLF before the next delimiter belongs to it.
      return { start: headersEnd + headerEnd.length, end: nextDelimiter - 2 }
    }
    partStart = nextDelimiter
  }
  return undefined
}

/**
 * The value of text field `name` (the audio `model`), read from the body's bytes: a 25 MB upload
 * is searched, never copied into a string.
 */
export function readMultipartField(
  body: Buffer,
  contentType: string | undefined,
  name: string,
): string | undefined {
  const field = findTextField(body, contentType, name)
  return field ? body.toString('utf8', field.start, field.end).trim() : undefined
}

/**
 * Returns a new body with field `name` set to `value`, or undefined when the body has no such
 * text field (callers then send the original bytes).
 */
export function replaceMultipartField(
  body: Buffer,
  contentType: string | undefined,
  name: string,
  value: string,
): Buffer | undefined {
  const field = findTextField(body, contentType, name)
  if (!field) return undefined
  return Buffer.concat([body.subarray(0, field.start), Buffer.from(value), body.subarray(field.end)])
}

/**
 * Returns a new body with text field `name` set to `value`: its value replaced, or a part of its
 * own added before the first when the body has none. Undefined for a body that is not multipart.
 */
export function setMultipartField(
  body: Buffer,
  contentType: string | undefined,
  name: string,
  value: string,
): Buffer | undefined {
  const replaced = replaceMultipartField(body, contentType, name, value)
  if (replaced) return replaced
  const boundary = multipartBoundary(contentType)
  if (!boundary) return undefined
  const first = body.indexOf(`--${boundary}`)
  if (first === -1) return undefined
  const part = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  )
  return Buffer.concat([body.subarray(0, first), part, body.subarray(first)])
}
