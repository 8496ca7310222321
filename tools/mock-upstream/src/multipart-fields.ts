/**
 * Reads the text fields (not the file) of a multipart/form-data body, enough for the audio
 * endpoints' model and response_format. https://www.rfc-editor.org/rfc/rfc7578
 */
export interface MultipartForm {
  fields: Record<string, string>
  files: string[]
}

export function parseMultipart(body: Buffer, contentType: string | undefined): MultipartForm | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '')
  if (!match) return undefined
  const delimiter = Buffer.from(`--${match[1] ?? match[2]}`)
  const form: MultipartForm = { fields: {}, files: [] }
  let start = body.indexOf(delimiter)
  while (start !== -1) {
    const headersStart = start + delimiter.length + 2
    const headersEnd = body.indexOf('\r\n\r\n', headersStart)
    const next = headersEnd === -1 ? -1 : body.indexOf(delimiter, headersEnd)
    if (next === -1) break
    const headers = body.toString('latin1', headersStart, headersEnd)
    const name = /name="([^"]*)"/i.exec(headers)?.[1]
    if (name !== undefined) {
      if (/filename=/i.test(headers)) form.files.push(name)
      else form.fields[name] = body.toString('utf8', headersEnd + 4, next - 2)
    }
    start = next
  }
  return form
}
