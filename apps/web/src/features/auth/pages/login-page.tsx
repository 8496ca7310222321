import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { type LoginInput, loginInputSchema } from '@one-api/contracts'
import { IconClockExclamation } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { schemaValidator } from '@/lib/form-validation.ts'
import { notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { useSignIn } from '../api/sign-in.ts'
import { AuthCard } from '../components/auth-card.tsx'
import { OtherSignInMethods } from '../components/other-sign-in-methods.tsx'
import { useTurnstile } from '../lib/use-turnstile.tsx'

const toLoginInput = (values: LoginInput): LoginInput => ({ ...values, username: values.username.trim() })

function PasswordSignIn() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signIn = useSignIn()
  const turnstile = useTurnstile()
  const form = useForm<LoginInput>({
    initialValues: { username: '', password: '' },
    validate: schemaValidator(loginInputSchema, toLoginInput, { fallbackField: 'username' }),
  })
  const submit = (values: LoginInput) => {
    if (!turnstile.ready()) return
    signIn.mutate(
      { ...toLoginInput(values), turnstileToken: turnstile.token },
      {
        onSuccess: () => {
          notifySuccess(t('auth.signedIn'))
          navigate('/')
        },
      },
    )
  }
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('auth.username')}
          placeholder={t('auth.usernamePlaceholder')}
          autoComplete="username"
          required
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        {turnstile.widget}
        <Button type="submit" fullWidth loading={signIn.isPending}>
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
        <OtherSignInMethods />
        <Group justify="space-between" gap="xs">
          <Anchor component={Link} to="/reset" size="sm">
            {t('auth.forgotPassword')}
          </Anchor>
          {status.register_enabled !== false && (
            <Text size="sm">
              {t('auth.noAccount')}{' '}
              <Anchor component={Link} to="/register">
                {t('auth.signUp')}
              </Anchor>
            </Text>
          )}
        </Group>
      </Stack>
    </AuthCard>
  )
}
