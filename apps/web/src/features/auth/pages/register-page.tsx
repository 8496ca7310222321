import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { TurnstileWidget } from '@/components/turnstile-widget.tsx'
import { notifyError, notifyInfo, notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { useSignUp } from '../api/sign-in.ts'
import { AuthCard } from '../components/auth-card.tsx'

export function RegisterPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [searchParams] = useSearchParams()
  const status = useStatus()
  const signUp = useSignUp()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [turnstileToken, setTurnstileToken] = useState('')
  const affCode = searchParams.get('aff') ?? ''
  const turnstileEnabled = status.turnstile_check === true
  const mismatch = confirmation !== '' && confirmation !== password

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!username.trim() || !password) return
    if (password !== confirmation) {
      notifyError(t('auth.passwordMismatch'))
      return
    }
    if (turnstileEnabled && !turnstileToken) {
      notifyInfo(t('auth.turnstileWait'))
      return
    }
    signUp.mutate(
      { username: username.trim(), password, affCode, turnstileToken },
      {
        onSuccess: () => {
          notifySuccess(t('auth.registered'))
          navigate('/login')
        },
      },
    )
  }

  const closed = status.register_enabled === false || status.password_register_enabled === false
  return (
    <AuthCard title={t('auth.signUpTitle')}>
      <Stack gap="md">
        {closed ? (
          <Alert color="gray">{t('auth.registerDisabled')}</Alert>
        ) : (
          <form onSubmit={submit}>
            <Stack gap="sm">
              <TextInput
                label={t('auth.username')}
                placeholder={t('auth.newUsernamePlaceholder')}
                autoComplete="username"
                required
                maxLength={12}
                value={username}
                onChange={(event) => setUsername(event.currentTarget.value)}
              />
              <PasswordInput
                label={t('auth.password')}
                placeholder={t('auth.passwordPlaceholder')}
                autoComplete="new-password"
                required
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
              />
              <PasswordInput
                label={t('auth.confirmPassword')}
                autoComplete="new-password"
                required
                value={confirmation}
                error={mismatch ? t('auth.passwordMismatch') : undefined}
                onChange={(event) => setConfirmation(event.currentTarget.value)}
              />
              {affCode && (
                <Text size="sm" c="dimmed">
                  {t('auth.invitedWith', { code: affCode })}
                </Text>
              )}
              {turnstileEnabled && status.turnstile_site_key && (
                <TurnstileWidget siteKey={status.turnstile_site_key} onVerify={setTurnstileToken} />
              )}
              <Button type="submit" fullWidth loading={signUp.isPending}>
                {t('auth.signUp')}
              </Button>
            </Stack>
          </form>
        )}
        <Text size="sm" ta="center">
          {t('auth.haveAccount')}{' '}
          <Anchor component={Link} to="/login">
            {t('auth.signIn')}
          </Anchor>
        </Text>
      </Stack>
    </AuthCard>
  )
}
