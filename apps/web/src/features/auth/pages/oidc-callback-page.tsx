import { useTranslation } from 'react-i18next'
import { useOAuthCallback } from '../api/use-oauth-callback.ts'
import { OAuthStatus } from '../components/oauth-status.tsx'

/** /oauth/oidc: the OpenID provider sends the visitor back here; one retry, then to /login. */
export function OidcCallbackPage() {
  const { t } = useTranslation()
  const { prompt } = useOAuthCallback({
    endpoint: '/api/oauth/oidc',
    maxRetries: 1,
    giveUpPath: '/login',
    firstFailurePrompt: t('oauth.failedToLogin'),
    leaveAfterSignIn: true,
  })
  return <OAuthStatus prompt={prompt} />
}
