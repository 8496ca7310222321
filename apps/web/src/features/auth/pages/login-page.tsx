import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { IconClockExclamation } from '@tabler/icons-react'
import { type FormEvent, lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { useSignIn } from '../api/sign-in.ts'
import { AuthCard } from '../components/auth-card.tsx'
import { useTurnstile } from '../lib/use-turnstile.tsx'

// The provider buttons (with their tooltips) load after the form: the page's first load stays small.
const OtherSignInMethods = lazy(async () => ({
  default: (await import('../components/other-sign-in-methods.tsx')).OtherSignInMethods,
}))

function PasswordSignIn() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { signIn, isPending } = useSignIn()
  const turnstile = useTurnstile()
  // Plain state, not @mantine/form: the sign-in page is the first screen and its first load is kept small.
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({})
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const missing = {
      username: username.trim() ? undefined : t('auth.usernameRequired'),
      password: password ? undefined : t('auth.passwordRequired'),
    }
    setErrors(missing)
    if (missing.username || missing.password || !turnstile.ready()) return
    if (await signIn({ username: username.trim(), password, turnstileToken: turnstile.token })) {
      notifySuccess(t('auth.signedIn'))
      navigate('/')
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('auth.username')}
          placeholder={t('auth.usernamePlaceholder')}
          autoComplete="username"
          required
          value={username}
          error={errors.username}
          onChange={(event) => setUsername(event.currentTarget.value)}
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          required
          value={password}
          error={errors.password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        {turnstile.widget}
        <Button type="submit" fullWidth loading={isPending}>
          {t('auth.signIn')}
        </Button>
      </Stack>
    </form>
  )
}

export function LoginPage() {
  const { t } = useTranslation()
  const [searchParams] = useSearchParams()
  const status = useStatus()
  const expired = searchParams.get('expired') === 'true'
  const passwordLoginEnabled = status.password_login_enabled !== false
  return (
    <AuthCard title={t('auth.signInTitle')}>
      <Stack gap="md">
        {expired && (
          <Alert color="yellow" icon={<IconClockExclamation />} title={t('auth.expiredTitle')}>
            {t('auth.expiredMessage')}
          </Alert>
        )}
        {passwordLoginEnabled ? (
          <PasswordSignIn />
        ) : (
          <Alert color="gray">{t('auth.passwordLoginDisabled')}</Alert>
        )}
        <Suspense>
          <OtherSignInMethods />
        </Suspense>
        <Group justify="space-between" gap="xs">
          <Anchor component={Link} to="/reset" size="sm">
            {t('auth.forgotPassword')}
          </Anchor>
          {status.register_enabled !== false && (
            <Text size="sm">
              {t('auth.noAccount')}{' '}
              <Anchor component={Link} to="/register" underline="always">
                {t('auth.signUp')}
              </Anchor>
            </Text>
          )}
        </Group>
      </Stack>
    </AuthCard>
  )
}
