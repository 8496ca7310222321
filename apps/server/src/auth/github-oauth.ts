import type { AppContext } from '../app-context.ts'
import { forbidden } from '../http/errors.ts'
import type { ExternalIdentity } from './oauth-account.ts'
import { callProvider, textField } from './oauth-http.ts'

const PROVIDER = 'GitHub'

/**
 * GitHub's web application flow: the code is exchanged for a token (JSON answer with
 * `Accept: application/json`; a wrong or expired code answers 200 with `error`), then the profile is
 * read. The subject is the GitHub login, as one-api stores it in github_id.
 * https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 */
export async function githubIdentity(context: AppContext, code: string): Promise<ExternalIdentity> {
  const { config, options } = context
  const exchange = await callProvider({
    provider: PROVIDER,
    url: `${config.GITHUB_OAUTH_URL.replace(/\/+$/, '')}/login/oauth/access_token`,
    json: {
      client_id: options.get('GitHubClientId'),
      client_secret: options.get('GitHubClientSecret'),
      code,
    },
  })
  const accessToken = textField(exchange.body, 'access_token')
  if (!accessToken) {
    throw forbidden('GitHub refused the sign-in: the code is invalid or has expired, please sign in again')
  }
  const profile = await callProvider({
    provider: PROVIDER,
    url: `${config.GITHUB_API_URL.replace(/\/+$/, '')}/user`,
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json' },
  })
  const login = textField(profile.body, 'login')
  if (profile.status !== 200 || !login)
    throw forbidden('GitHub did not return the account: please sign in again')
  return {
    column: 'github_id',
    provider: PROVIDER,
    subject: login,
    preferredUsername: login,
    usernamePrefix: 'github',
    displayName: textField(profile.body, 'name') || 'GitHub User',
    email: textField(profile.body, 'email') || undefined,
  }
}
