/**
 * Google's OAuth token for a service account: a JWT signed with the account's private key (RS256)
 * is exchanged at the account's token URI for an access token of the cloud-platform scope, valid an
 * hour. Signing with node:crypto is deterministic (PKCS #1 v1.5), so building the exchange stays pure.
 * https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 */
import { createPrivateKey, sign } from 'node:crypto'
import type { CredentialExchange, UpstreamError } from '../adaptor.ts'
import {
  credentialCacheKey,
  credentialExchangeError,
  unusableChannelKey,
} from '../shared/credential-exchange.ts'
import { localError } from '../shared/upstream-error.ts'
import type { ServiceAccount, VertexSettings } from './service-account.ts'

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform'
/** The longest life Google grants an assertion, and asks for. */
const ASSERTION_SECONDS = 3600
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url')

/** The signed assertion, or undefined when the private key cannot be read. */
export function signedAssertion(account: ServiceAccount, now: number): string | undefined {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) }
  const claims = {
    iss: account.clientEmail,
    scope: CLOUD_PLATFORM_SCOPE,
    aud: account.tokenUri,
    iat: now,
    exp: now + ASSERTION_SECONDS,
  }
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`
  let key: ReturnType<typeof createPrivateKey>
  try {
    key = createPrivateKey(account.privateKey)
  } catch {
    return undefined
  }
  return `${unsigned}.${base64url(sign('RSA-SHA256', Buffer.from(unsigned), key))}`
}

export function tokenExchange(settings: VertexSettings, now: number): CredentialExchange | UpstreamError {
  const assertion = signedAssertion(settings.account, now)
  if (!assertion) return unusableChannelKey('the private key of the Vertex AI service account cannot be read')
  const body = new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString()
  return {
    kind: 'exchange',
    cacheKey: credentialCacheKey(42, settings.adc),
    request: {
      kind: 'request',
      url: settings.account.tokenUri,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      bodyRewritten: true,
      dropUsageChunk: false,
    },
    parse(response) {
      if (response.status < 200 || response.status >= 300) return credentialExchangeError(response)
      let json: { access_token?: unknown; expires_in?: unknown }
      try {
        json = JSON.parse(response.body.toString('utf8'))
      } catch {
        json = {}
      }
      if (typeof json.access_token !== 'string' || json.access_token === '') {
        return localError(502, 'invalid_token_response', 'the token endpoint answered without a token', {
          retryable: true,
          type: 'upstream_error',
        })
      }
      const lifetime =
        typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : ASSERTION_SECONDS
      return { kind: 'credential', token: json.access_token, expiresAt: now + lifetime }
    },
  }
}
