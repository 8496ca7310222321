import type { SessionUser } from '@one-api/contracts'
import { apiGet } from '@/lib/api-client.ts'
import type { ConsoleStatus } from '@/lib/status.ts'

const GITHUB_DEFAULT = 'https://github.com'
const LARK_DEFAULT = 'https://open.feishu.cn'

/** Where the providers send the person back: the server address the server itself uses. */
function callbackUrl(status: Partial<ConsoleStatus>, path: string): string {
  const base = (status.server_address || window.location.origin).replace(/\/+$/, '')
  return `${base}${path}`
}

/**
 * GitHub's authorize page, with a state the server issued to this browser. The callback signs the
 * person in, or binds the GitHub account when they are already signed in.
 */
export async function redirectToGitHub(status: Partial<ConsoleStatus>): Promise<void> {
  const state = await apiGet<string>('/api/oauth/state')
  const query = new URLSearchParams({
    client_id: status.github_client_id ?? '',
    state,
    scope: 'user:email',
  })
  const base = (status.github_oauth_url || GITHUB_DEFAULT).replace(/\/+$/, '')
  window.location.assign(`${base}/login/oauth/authorize?${query}`)
}

/** Lark's authorize page; it sends the person back to /oauth/lark with code and state. */
export async function redirectToLark(status: Partial<ConsoleStatus>): Promise<void> {
  const state = await apiGet<string>('/api/oauth/state')
  const query = new URLSearchParams({
    client_id: status.lark_client_id ?? '',
    redirect_uri: callbackUrl(status, '/oauth/lark'),
    state,
  })
  const base = (status.lark_oauth_url || LARK_DEFAULT).replace(/\/+$/, '')
  window.location.assign(`${base}/open-apis/authen/v1/authorize?${query}`)
}

interface OidcStart {
  state: string
  code_challenge: string
  code_challenge_method: string
  authorization_endpoint: string
}

/** The OpenID provider's authorization endpoint, with a state and a PKCE challenge from the server. */
export async function redirectToOidc(status: Partial<ConsoleStatus>): Promise<void> {
  const start = await apiGet<OidcStart>('/api/oauth/state?pkce=S256')
  const endpoint = start.authorization_endpoint || status.oidc_authorization_endpoint
  if (!endpoint) throw new Error('the OpenID provider has no authorization endpoint')
  const query = new URLSearchParams({
    client_id: status.oidc_client_id ?? '',
    response_type: 'code',
    scope: 'openid profile email',
    redirect_uri: callbackUrl(status, '/oauth/oidc'),
    state: start.state,
    code_challenge: start.code_challenge,
    code_challenge_method: start.code_challenge_method,
  })
  window.location.assign(`${endpoint}${endpoint.includes('?') ? '&' : '?'}${query}`)
}

/** GET /api/oauth/wechat?code=: the code the official account sent the person signs them in. */
export function signInWithWeChat(code: string): Promise<SessionUser> {
  return apiGet<SessionUser>(`/api/oauth/wechat?code=${encodeURIComponent(code)}`)
}

/** GET /api/oauth/wechat/bind?code=: binds the WeChat account to the signed-in user. */
export function bindWeChat(code: string): Promise<void> {
  return apiGet<void>(`/api/oauth/wechat/bind?code=${encodeURIComponent(code)}`)
}

export type RedirectProvider = 'github' | 'lark' | 'oidc'

const REDIRECTS: Record<RedirectProvider, (status: Partial<ConsoleStatus>) => Promise<void>> = {
  github: redirectToGitHub,
  lark: redirectToLark,
  oidc: redirectToOidc,
}

/** The provider's page: a sign-in, or a binding when the person is already signed in. */
export function redirectTo(provider: RedirectProvider, status: Partial<ConsoleStatus>): Promise<void> {
  return REDIRECTS[provider](status)
}
