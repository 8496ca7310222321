/**
 * Checks an AWS SigV4 signature as AWS does: the access key must be known, the date recent, and
 * the signature, recomputed over the signed headers and the body with the key's secret by AWS's
 * own signer (@smithy/signature-v4), equal to the one sent.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 */
import type { IncomingHttpHeaders } from 'node:http'
import { Sha256 } from '@aws-crypto/sha256-js'
import { SignatureV4 } from '@smithy/signature-v4'

/** Credentials the mock knows unless told others (tests sign with these). */
export const MOCK_AWS_CREDENTIALS: Readonly<Record<string, string>> = {
  AKIAMOCKUPSTREAM0001: 'mock/upstream/secret/0001',
  AKIAMOCKUPSTREAM0002: 'mock/upstream/secret/0002',
}

export type SignatureRefusal = { errorType: string; message: string }

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/

/** How far the signing time may be from now, as AWS allows. */
const MAX_SKEW_MS = 15 * 60 * 1000

const MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.'

/** `20150830T123600Z` → a Date. */
function parseAmzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value)
  if (!match) return undefined
  const [, year, month, day, hour, minute, second] = match
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`)
}

/** Undefined when the signature holds; else the refusal AWS would answer (403). */
export async function checkAwsSignature(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
  service: string,
  credentials: Readonly<Record<string, string>>,
): Promise<SignatureRefusal | undefined> {
  const authorization = headers.authorization
  const parsed = typeof authorization === 'string' ? AUTHORIZATION.exec(authorization) : null
  if (!parsed) {
    return { errorType: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' }
  }
  const [, accessKeyId, day, region, signedService, signedHeaders] = parsed
  const secretAccessKey = credentials[accessKeyId!]
  if (secretAccessKey === undefined) {
    return {
      errorType: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    }
  }
  const date = parseAmzDate(String(headers['x-amz-date'] ?? ''))
  if (!date || date.toISOString().slice(0, 10).replace(/-/g, '') !== day || signedService !== service) {
    return { errorType: 'InvalidSignatureException', message: MISMATCH }
  }
  if (Math.abs(Date.now() - date.getTime()) > MAX_SKEW_MS) {
    return {
      errorType: 'InvalidSignatureException',
      message: 'Signature expired: the request time is too skewed',
    }
  }
  const names = signedHeaders!.split(';')
  if (!names.includes('host') || !names.includes('x-amz-date')) {
    return { errorType: 'InvalidSignatureException', message: MISMATCH }
  }
  const toSign: Record<string, string> = {}
  for (const name of names) toSign[name] = String(headers[name] ?? '')
  const [pathname, query = ''] = path.split('?', 2)
  const signer = new SignatureV4({
    service,
    region: region!,
    credentials: { accessKeyId: accessKeyId!, secretAccessKey },
    sha256: Sha256,
    uriEscapePath: true,
    applyChecksum: false,
  })
  const signed = await signer.sign(
    {
      method,
      protocol: 'https:',
      hostname: String(headers.host ?? ''),
      path: pathname!,
      query: Object.fromEntries(new URLSearchParams(query)),
      headers: toSign,
      body,
    },
    { signingDate: date },
  )
  return signed.headers.authorization === authorization
    ? undefined
    : { errorType: 'InvalidSignatureException', message: MISMATCH }
}
