import { useTranslation } from 'react-i18next'
import { useStatus } from '@/lib/status.ts'
import { useOAuthCallback } from '../api/use-oauth-callback.ts'
import { FreeKeyPanel } from '../components/free-key-panel.tsx'
import { OAuthStatus } from '../components/oauth-status.tsx'

/**
 * /oauth/github: GitHub sends the visitor back here with code and state. Failures are retried
 * without end (2 s times the attempt between them). In free-key mode a sign-in stays here and shows
 * the API URL and key.
 */
export function GitHubCallbackPage() {
  const { t } = useTranslation()
  const status = useStatus()
  const { prompt, outcome } = useOAuthCallback({
    endpoint: '/api/oauth/github',
    maxRetries: Number.POSITIVE_INFINITY,
    firstFailurePrompt: t('oauth.githubFirstFailure'),
    leaveAfterSignIn: !status.free_key_mode,
  })
  if (outcome === 'signed-in' && status.free_key_mode) return <FreeKeyPanel status={status} />
  return <OAuthStatus prompt={prompt} />
}
