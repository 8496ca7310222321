import { useTranslation } from 'react-i18next'
import { useOAuthCallback } from '../api/use-oauth-callback.ts'
import { OAuthStatus } from '../components/oauth-status.tsx'

/** /oauth/lark: one retry, then back to the settings page (where binding starts). */
export function LarkCallbackPage() {
  const { t } = useTranslation()
  const { prompt } = useOAuthCallback({
    endpoint: '/api/oauth/lark',
    maxRetries: 1,
    giveUpPath: '/setting',
    firstFailurePrompt: t('oauth.failedRedirecting'),
    leaveAfterSignIn: true,
  })
  return <OAuthStatus prompt={prompt} />
}
