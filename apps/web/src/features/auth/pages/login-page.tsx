import { Alert, Anchor, Button, Center, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { IconClockExclamation } from '@tabler/icons-react'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { TurnstileWidget } from '@/components/turnstile-widget.tsx'
import { notifyInfo, notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { useSignIn } from '../api/sign-in.ts'
import { AuthCard } from '../components/auth-card.tsx'
import { GitHubSignInButton } from '../components/github-sign-in-button.tsx'

export function LoginPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const status = useStatus()
  const signIn = useSignIn()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [turnstileToken, setTurnstileToken] = useState('')
  const expired = searchParams.get('expired') === 'true'
  const turnstileEnabled = status.turnstile_check === true
  const passwordLoginEnabled = status.password_login_enabled !== false

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!username.trim() || !password) return
    if (turnstileEnabled && !turnstileToken) {
      notifyInfo(t('auth.turnstileWait'))
      return
    }
    signIn.mutate(
      { username: username.trim(), password, turnstileToken },
      {
        onSuccess: () => {
          notifySuccess(t('auth.signedIn'))
          navigate('/')
        },
      },
    )
  }

  return (
    <AuthCard title={t('auth.signInTitle')}>
      <Stack gap="md">
        {expired && (
          <Alert color="yellow" icon={<IconClockExclamation />} title={t('auth.expiredTitle')}>
            {t('auth.expiredMessage')}
          </Alert>
        )}
        {passwordLoginEnabled ? (
          <form onSubmit={submit}>
            <Stack gap="sm">
              <TextInput
                label={t('auth.username')}
                placeholder={t('auth.usernamePlaceholder')}
                autoComplete="username"
                required
                value={username}
                onChange={(event) => setUsername(event.currentTarget.value)}
              />
              <PasswordInput
                label={t('auth.password')}
                autoComplete="current-password"
                required
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
              />
              {turnstileEnabled && status.turnstile_site_key && (
                <TurnstileWidget siteKey={status.turnstile_site_key} onVerify={setTurnstileToken} />
              )}
              <Button type="submit" fullWidth loading={signIn.isPending}>
                {t('auth.signIn')}
              </Button>
            </Stack>
          </form>
        ) : (
          <Alert color="gray">{t('auth.passwordLoginDisabled')}</Alert>
        )}
        {status.github_oauth && (
          <>
            <Divider label={t('auth.otherMethods')} labelPosition="center" />
            <Center>
              <GitHubSignInButton clientId={status.github_client_id ?? ''} />
            </Center>
          </>
        )}
        {status.register_enabled !== false && (
          <Text size="sm" ta="center">
            {t('auth.noAccount')}{' '}
            <Anchor component={Link} to="/register">
              {t('auth.signUp')}
            </Anchor>
          </Text>
        )}
      </Stack>
    </AuthCard>
  )
}
