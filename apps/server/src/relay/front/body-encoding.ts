import { brotliDecompress, gunzip, type InputType, inflate, type ZlibOptions } from 'node:zlib'
import { RelayError } from '../auth/relay-error.ts'

type Decompress = (
  input: InputType,
  options: ZlibOptions,
  callback: (error: Error | null, result: Buffer) => void,
) => void

/** The Content-Encodings a client may compress its request body with (one-api takes gzip). */
const DECODERS: Record<string, Decompress> = {
  gzip: gunzip,
  'x-gzip': gunzip,
  deflate: inflate,
  br: brotliDecompress as Decompress,
}

/** True when the body must be decoded before it is read: a Content-Encoding other than identity. */
export const isEncoded = (encoding: string | undefined): encoding is string =>
  encoding !== undefined && encoding !== '' && encoding.toLowerCase() !== 'identity'

/**
 * Decodes a compressed request body, its decoded size held to `limit` like a plain body's, so a
 * small compressed upload cannot expand past what the gateway accepts. Answers the decoded bytes,
 * or the RelayError to send: 413 too large, 400 not what the header says, 415 an unknown encoding.
 */
export function decodeRequestBody(
  body: Buffer,
  encoding: string,
  limit: number,
  done: (result: Buffer | RelayError) => void,
): void {
  const name = encoding.trim().toLowerCase()
  const decode = Object.hasOwn(DECODERS, name) ? DECODERS[name] : undefined
  if (!decode) {
    done(
      new RelayError(
        415,
        `Content-Encoding ${encoding} is not supported: send the body as it is, or gzip, deflate or br`,
        'unsupported_content_encoding',
        'invalid_request_error',
      ),
    )
    return
  }
  decode(body, { maxOutputLength: limit }, (error, decoded) => {
    if (!error) return done(decoded)
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      return done(
        new RelayError(
          413,
          'The request body is too large once decoded',
          'request_too_large',
          'invalid_request_error',
        ),
      )
    }
    done(
      new RelayError(
        400,
        `The request body is not valid ${name} data`,
        'invalid_content_encoding',
        'invalid_request_error',
      ),
    )
  })
}
