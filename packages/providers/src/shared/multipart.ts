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
    const disposition = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)
    const isFile = /filename=/i.test(headers)
    if (disposition?.[1] === name && !isFile) {
      const valueStart = headersEnd + headerEnd.length
      const valueEnd = nextDelimiter - 2 // the CRLF before the next delimiter belongs to it
      return Buffer.concat([body.subarray(0, valueStart), Buffer.from(value), body.subarray(valueEnd)])
    }
    partStart = nextDelimiter
  }
  return undefined
}
