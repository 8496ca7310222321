import { useTranslation } from 'react-i18next'
import { useOAuthCallback } from '../api/use-oauth-callback.ts'
import { OAuthStatus } from '../components/oauth-status.tsx'

/** /oauth/github: GitHub sends the visitor back here with code and state. */
export function GitHubCallbackPage() {
  const { t } = useTranslation()
  const prompt = useOAuthCallback({
    endpoint: '/api/oauth/github',
    maxRetries: Number.POSITIVE_INFINITY,
    firstFailurePrompt: t('oauth.githubFirstFailure'),
  })
  return <OAuthStatus prompt={prompt} />
}
