import type { IncomingMessage } from 'node:http'

/**
 * Reads a request body into one Buffer, refusing it as soon as it is known to exceed `limit`
 * (by its Content-Length, or by counting chunks). A client that leaves mid-upload gets no call.
 */
export function readRequestBody(
  request: IncomingMessage,
  limit: number,
  done: (body: Buffer | 'too-large') => void,
): void {
  const declared = Number(request.headers['content-length'])
  if (declared > limit) {
    done('too-large')
    return
  }
  const chunks: Buffer[] = []
  let size = 0
  let refused = false
  request.on('data', (chunk: Buffer) => {
    if (refused) return
    size += chunk.length
    if (size > limit) {
      refused = true
      chunks.length = 0
      done('too-large')
      return
    }
    chunks.push(chunk)
  })
  request.on('end', () => {
    if (refused) return
    done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
  })
  // A broken upload has nobody to answer; the socket is already gone.
  request.on('error', () => {})
}
