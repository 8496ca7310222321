/**
 * Tencent Cloud API 3.0 signing, TC3-HMAC-SHA256, for a JSON POST to `/` with the headers
 * content-type, host and x-tc-action signed (the set one-api signs).
 * https://cloud.tencent.com/document/api/1729/101843
 */
import { createHash, createHmac } from 'node:crypto'

export const TC3_ALGORITHM = 'TC3-HMAC-SHA256'
const SIGNED_HEADERS = 'content-type;host;x-tc-action'

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')
const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest()

export interface Tc3Input {
  readonly secretId: string
  readonly secretKey: string
  readonly service: string
  readonly host: string
  readonly action: string
  readonly payload: string
  /** Unix seconds of the request (X-TC-Timestamp). */
  readonly timestamp: number
  readonly contentType: string
}

/** The UTC date (YYYY-MM-DD) of a Unix time in seconds: the date of the credential scope. */
export const tc3Date = (timestamp: number): string => new Date(timestamp * 1000).toISOString().slice(0, 10)

/** The hex signature of a request. */
export function tc3Signature(input: Tc3Input): string {
  const canonicalHeaders = `content-type:${input.contentType}\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, SIGNED_HEADERS, sha256Hex(input.payload)].join(
    '\n',
  )
  const date = tc3Date(input.timestamp)
  const scope = `${date}/${input.service}/tc3_request`
  const stringToSign = [TC3_ALGORITHM, String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n')
  const signing = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request')
  return createHmac('sha256', signing).update(stringToSign).digest('hex')
}

/** The Authorization header of a request. */
export function tc3Authorization(input: Tc3Input): string {
  const scope = `${tc3Date(input.timestamp)}/${input.service}/tc3_request`
  return `${TC3_ALGORITHM} Credential=${input.secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${tc3Signature(input)}`
}
