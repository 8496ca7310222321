import type { AppContext } from '../app-context.ts'
import { AppError, forbidden } from '../http/errors.ts'
import { serverAddress } from './mail-messages.ts'
import type { ExternalIdentity } from './oauth-account.ts'
import { callProvider, textField } from './oauth-http.ts'

const PROVIDER = 'the OIDC provider'
const DISCOVERY_TTL_MS = 10 * 60_000

export interface OidcEndpoints {
  authorization: string
  token: string
  userinfo: string
}

let discovered: { wellKnown: string; endpoints: Partial<OidcEndpoints>; at: number } | undefined

/**
 * The provider's endpoints: those set in the options (OidcAuthorizationEndpoint, OidcTokenEndpoint,
 * OidcUserinfoEndpoint) win; the others come from the discovery document at OidcWellKnown
 * (`…/.well-known/openid-configuration`), fetched at most every 10 minutes.
 */
export async function oidcEndpoints(context: AppContext): Promise<OidcEndpoints> {
  const { options } = context
  const configured = {
    authorization: options.get('OidcAuthorizationEndpoint'),
    token: options.get('OidcTokenEndpoint'),
    userinfo: options.get('OidcUserinfoEndpoint'),
  }
  const wellKnown = options.get('OidcWellKnown')
  let fromDiscovery: Partial<OidcEndpoints> = {}
  if (wellKnown && !(configured.authorization && configured.token && configured.userinfo)) {
    fromDiscovery = await discover(wellKnown)
  }
  const endpoints = {
    authorization: configured.authorization || fromDiscovery.authorization || '',
    token: configured.token || fromDiscovery.token || '',
    userinfo: configured.userinfo || fromDiscovery.userinfo || '',
  }
  if (!endpoints.authorization || !endpoints.token || !endpoints.userinfo) {
    throw new AppError(
      'service_unavailable',
      'OIDC is not fully configured: set the well-known URL or the endpoints',
    )
  }
  return endpoints
}

async function discover(wellKnown: string): Promise<Partial<OidcEndpoints>> {
  if (discovered && discovered.wellKnown === wellKnown && Date.now() - discovered.at < DISCOVERY_TTL_MS) {
    return discovered.endpoints
  }
  const document = await callProvider({ provider: PROVIDER, url: wellKnown })
  if (document.status !== 200)
    throw new AppError('service_unavailable', `Could not reach ${PROVIDER}: please try again later`)
  const endpoints = {
    authorization: textField(document.body, 'authorization_endpoint'),
    token: textField(document.body, 'token_endpoint'),
    userinfo: textField(document.body, 'userinfo_endpoint'),
  }
  discovered = { wellKnown, endpoints, at: Date.now() }
  return endpoints
}

/**
 * OpenID Connect authorization code flow with PKCE: the code and the verifier kept with the state go
 * to the token endpoint (client_secret_post, form-encoded as the standard asks), then the user info;
 * the subject is `sub`, the username `preferred_username` when free.
 * https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 */
export async function oidcIdentity(
  context: AppContext,
  code: string,
  codeVerifier: string,
): Promise<ExternalIdentity> {
  const { options } = context
  const endpoints = await oidcEndpoints(context)
  const exchange = await callProvider({
    provider: PROVIDER,
    url: endpoints.token,
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${serverAddress(context)}/oauth/oidc`,
      client_id: options.get('OidcClientId'),
      client_secret: options.get('OidcClientSecret'),
      code_verifier: codeVerifier,
    },
  })
  const accessToken = textField(exchange.body, 'access_token')
  if (exchange.status !== 200 || !accessToken) {
    throw forbidden(
      'The OIDC provider refused the sign-in: the code is invalid or has expired, please sign in again',
    )
  }
  const profile = await callProvider({
    provider: PROVIDER,
    url: endpoints.userinfo,
    headers: { authorization: `Bearer ${accessToken}` },
  })
  const subject = textField(profile.body, 'sub')
  if (profile.status !== 200 || !subject)
    throw forbidden('The OIDC provider did not return the account: please sign in again')
  return {
    column: 'oidc_id',
    provider: 'OIDC',
    subject,
    preferredUsername: textField(profile.body, 'preferred_username') || undefined,
    usernamePrefix: 'oidc',
    displayName: textField(profile.body, 'name') || 'OIDC User',
    email: profile.body.email_verified === false ? undefined : textField(profile.body, 'email') || undefined,
  }
}
