/**
 * Google's side of Vertex AI: a token endpoint (`POST /token`) that checks a service account's
 * JWT assertion as Google does (RS256 signature by the account's registered public key, audience,
 * scope, issue and expiry times) and issues access tokens valid an hour, and the check of those
 * tokens on Vertex calls (`Authorization: Bearer`). Errors in Google's shapes.
 * https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 */
import { randomBytes, verify } from 'node:crypto'
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { handleMessages } from './anthropic.ts'
import { sendJson } from './errors.ts'
import type { FaultPlan } from './faults.ts'
import { handleGemini, invalidGenerateRequest } from './gemini.ts'
import type { Route } from './routes.ts'
import { handleVertexPredict } from './vertex-embeddings.ts'

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer'
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform'
const TOKEN_SECONDS = 3599
/** How far an assertion's issue time may be ahead of the clock. */
const SKEW_SECONDS = 300

const UNTIMELY =
  'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.'

export function sendGoogleError(
  response: ServerResponse,
  status: number,
  message: string,
  reason: string,
): void {
  sendJson(response, status, JSON.stringify({ error: { code: status, message, status: reason } }))
}

function decodePart(part: string | undefined): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null ? value : undefined
  } catch {
    return undefined
  }
}

export class VertexAuth {
  /** Service account email → its public key (PEM). */
  private readonly accounts = new Map<string, string>()
  /** Access token → Unix seconds it expires at. */
  private readonly tokens = new Map<string, number>()
  issued = 0

  addServiceAccount(email: string, publicKeyPem: string): void {
    this.accounts.set(email, publicKeyPem)
  }

  /** Every token issued so far stops working (as a revoked or expired one does). */
  revokeTokens(): void {
    this.tokens.clear()
  }

  /** `POST /token`: the assertion checked, then a token issued. */
  token(response: ServerResponse, headers: IncomingHttpHeaders, body: Buffer): void {
    const refusal = this.refusal(new URLSearchParams(body.toString('utf8')), `http://${headers.host}/token`)
    if (refusal) {
      const [status, error, description] = refusal
      sendJson(response, status, JSON.stringify({ error, error_description: description }))
      return
    }
    const now = Math.floor(Date.now() / 1000)
    const token = `ya29.mock-${randomBytes(12).toString('base64url')}`
    this.tokens.set(token, now + TOKEN_SECONDS)
    this.issued += 1
    sendJson(
      response,
      200,
      JSON.stringify({ access_token: token, expires_in: TOKEN_SECONDS, token_type: 'Bearer' }),
    )
  }

  /** Why Google would refuse the form's assertion (status, OAuth error, description), or undefined. */
  private refusal(form: URLSearchParams, audience: string): [number, string, string] | undefined {
    if (form.get('grant_type') !== JWT_BEARER) return [400, 'unsupported_grant_type', 'Invalid grant_type: ']
    const [header, claims, signature] = (form.get('assertion') ?? '').split('.')
    const head = decodePart(header)
    const payload = decodePart(claims)
    if (!head || !payload || !signature || head.alg !== 'RS256') return [400, 'invalid_grant', UNTIMELY]
    const publicKey = this.accounts.get(String(payload.iss))
    if (!publicKey) return [401, 'invalid_client', 'The OAuth client was not found.']
    const signed = Buffer.from(`${header}.${claims}`)
    if (!verify('RSA-SHA256', signed, publicKey, Buffer.from(signature, 'base64url'))) {
      return [400, 'invalid_grant', 'Invalid JWT Signature.']
    }
    const now = Math.floor(Date.now() / 1000)
    const iat = Number(payload.iat)
    const exp = Number(payload.exp)
    const timely = iat <= now + SKEW_SECONDS && exp > now && exp - iat <= 3600
    if (!timely || payload.aud !== audience) return [400, 'invalid_grant', UNTIMELY]
    if (
      !String(payload.scope ?? '')
        .split(' ')
        .includes(CLOUD_PLATFORM)
    ) {
      return [400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.']
    }
    return undefined
  }

  /** Whether a Vertex call carries a token this endpoint issued and that has not expired; else answers 401. */
  refuseBearer(response: ServerResponse, headers: IncomingHttpHeaders): boolean {
    const token = headers.authorization?.replace(/^Bearer /, '')
    const expiresAt = token ? this.tokens.get(token) : undefined
    if (expiresAt !== undefined && expiresAt > Date.now() / 1000) return false
    sendGoogleError(
      response,
      401,
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
      'UNAUTHENTICATED',
    )
    return true
  }
}

/** Google's status names for the statuses of the fault injection. */
const GOOGLE_STATUSES: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  403: [
    'PERMISSION_DENIED',
    "Permission 'aiplatform.endpoints.predict' denied on resource (or it may not exist).",
  ],
  404: ['NOT_FOUND', 'Publisher model was not found or your project does not have access to it.'],
  429: [
    'RESOURCE_EXHAUSTED',
    'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model.',
  ],
  500: ['INTERNAL', 'Internal error encountered.'],
  503: ['UNAVAILABLE', 'The service is currently unavailable.'],
}

export function sendGoogleStatus(response: ServerResponse, status: number): void {
  const [reason, message] = GOOGLE_STATUSES[status] ?? ['UNKNOWN', `Mock upstream error ${status}.`]
  sendGoogleError(response, status, message, reason)
}

/** A Vertex AI model call, by publisher and method. */
export function handleVertex(
  response: ServerResponse,
  json: Record<string, unknown>,
  route: Route,
  query: string,
  faults: FaultPlan,
): Promise<void> | void {
  const model = route.model ?? ''
  if (
    route.publisher === 'google' &&
    (route.action === 'generateContent' || route.action === 'streamGenerateContent')
  ) {
    // Gemini answers as on the Gemini API, its request checked the same way, but for the role of
    // each content, which Vertex requires where the Gemini API takes it as optional.
    const roleless = Array.isArray(json.contents) && json.contents.some((content) => !content?.role)
    const invalid = roleless
      ? 'Unable to submit request because Please use a valid role: user, model.'
      : invalidGenerateRequest(json)
    if (invalid) return sendGoogleError(response, 400, invalid, 'INVALID_ARGUMENT')
    return handleGemini(response, json, { version: 'v1', model, action: route.action }, query, faults)
  }
  if (route.publisher === 'google' && route.action === 'predict') {
    return handleVertexPredict(response, json, model)
  }
  if (
    route.publisher === 'anthropic' &&
    (route.action === 'rawPredict' || route.action === 'streamRawPredict')
  ) {
    // Vertex takes the model from the URL only, and Anthropic's version in the body.
    if (json.anthropic_version !== 'vertex-2023-10-16') {
      return sendGoogleError(
        response,
        400,
        "anthropic_version: Input should be 'vertex-2023-10-16'",
        'INVALID_ARGUMENT',
      )
    }
    if ('model' in json)
      return sendGoogleError(response, 400, 'model: Extra inputs are not permitted', 'INVALID_ARGUMENT')
    return handleMessages(
      response,
      { ...json, stream: route.action === 'streamRawPredict' && json.stream === true },
      model,
      faults,
    )
  }
  sendGoogleError(
    response,
    404,
    `Publisher Model \`${model}\` of ${route.publisher} has no method ${route.action} here.`,
    'NOT_FOUND',
  )
}
