import { Alert, Button, Container, Stack } from '@mantine/core'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate } from 'react-router'
import { readStoredStatus } from '@/lib/status.ts'
import { redirectToGitHub } from '../api/oauth.ts'
import { OAuthStatus } from '../components/oauth-status.tsx'

/** /github: sends the visitor to GitHub's authorize page, when GitHub sign-in is configured. */
export function GitHubAuthorizePage() {
  const { t } = useTranslation()
  const status = readStoredStatus()
  const enabled = status?.github_oauth === true && Boolean(status.github_client_id)

  // biome-ignore lint/correctness/useExhaustiveDependencies: one redirect per visit, with the stored status
  useEffect(() => {
    if (enabled && status) void redirectToGitHub(status).catch(() => {})
  }, [enabled])

  if (!status) return <Navigate to="/login" replace />
  if (enabled) return <OAuthStatus prompt={t('oauth.authorizing')} />
  return (
    <Container size="sm" py="xl">
      <Stack align="flex-start">
        <Alert color="yellow" title={t('oauth.authorizeFirstTitle')}>
          {t('oauth.authorizeFirstMessage')}
        </Alert>
        <Button component={Link} to="/login">
          {t('auth.signIn')}
        </Button>
      </Stack>
    </Container>
  )
}
