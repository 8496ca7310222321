/**
 * AWS Signature Version 4 for a JSON POST, signed at a given time (the request's arrival), so that
 * building the request stays a pure function.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 * Services other than S3 take each path segment URI-encoded twice in the canonical request: once
 * in the URL itself, once more when signing.
 */
import { createHash, createHmac } from 'node:crypto'

export interface AwsCredentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly region: string
}

export interface SignInput {
  /** The full URL, its path already URI-encoded once. */
  readonly url: string
  readonly headers: Record<string, string>
  readonly body: string
  readonly service: string
  /** Unix seconds. */
  readonly time: number
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters percent-encoded. */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  )

/** `20150830T123600Z` */
export function amzDate(time: number): string {
  return new Date(time * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
}

function canonicalQuery(search: URLSearchParams): string {
  return [...search.entries()]
    .map(([name, value]) => [uriEncode(name), uriEncode(value)])
    .sort(([a, b], [c, d]) => (a! < c! ? -1 : a! > c! ? 1 : b! < d! ? -1 : b! > d! ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
}

/**
 * The headers to send: `headers` plus host, x-amz-date and the Authorization header that signs
 * them all with the body.
 */
export function signRequest(input: SignInput, credentials: AwsCredentials): Record<string, string> {
  const url = new URL(input.url)
  const date = amzDate(input.time)
  const day = date.slice(0, 8)
  const signed: Record<string, string> = { host: url.host, 'x-amz-date': date }
  for (const [name, value] of Object.entries(input.headers)) signed[name.toLowerCase()] = value
  const names = Object.keys(signed).sort()
  const canonicalHeaders = names
    .map((name) => `${name}:${signed[name]!.trim().replace(/\s+/g, ' ')}\n`)
    .join('')
  const signedHeaders = names.join(';')
  const canonicalPath = url.pathname
    .split('/')
    .map((segment) => uriEncode(segment))
    .join('/')
  const canonicalRequest = [
    'POST',
    canonicalPath,
    canonicalQuery(url.searchParams),
    canonicalHeaders,
    signedHeaders,
    sha256(input.body),
  ].join('\n')
  const scope = `${day}/${credentials.region}/${input.service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonicalRequest)].join('\n')
  const dayKey = hmac(`AWS4${credentials.secretAccessKey}`, day)
  const signingKey = hmac(hmac(hmac(dayKey, credentials.region), input.service), 'aws4_request')
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex')
  const authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
  const { host: _host, ...rest } = signed
  return { ...rest, authorization }
}
