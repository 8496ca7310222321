import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { type RegisterInput, registerInputSchema } from '@one-api/contracts'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { schemaValidator } from '@/lib/form-validation.ts'
import { notifySuccess } from '@/lib/notify.ts'
import { useStatus } from '@/lib/status.ts'
import { useSignUp } from '../api/sign-up.ts'
import { AuthCard } from '../components/auth-card.tsx'
import { EmailCodeFields } from '../components/email-code-fields.tsx'
import { useTurnstile } from '../lib/use-turnstile.tsx'

interface RegisterValues {
  username: string
  password: string
  confirmation: string
  email: string
  verification_code: string
}

function toPayload(values: RegisterValues, affCode: string, withEmail: boolean): RegisterInput {
  return {
    username: values.username.trim(),
    password: values.password,
    ...(withEmail ? { email: values.email.trim(), verification_code: values.verification_code.trim() } : {}),
    ...(affCode ? { aff_code: affCode } : {}),
  }
}

function RegisterForm({ affCode, withEmail }: { affCode: string; withEmail: boolean }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signUp = useSignUp()
  const turnstile = useTurnstile()
  const schemaErrors = schemaValidator(
    registerInputSchema,
    (values: RegisterValues) => toPayload(values, affCode, withEmail),
    { fallbackField: 'username' },
  )
  const form = useForm<RegisterValues>({
    initialValues: { username: '', password: '', confirmation: '', email: '', verification_code: '' },
    // A mistyped confirmation is said while typing, not only on submit.
    validateInputOnChange: ['confirmation'],
    validate: (values) => {
      const errors = schemaErrors(values)
      if (values.confirmation !== values.password) errors.confirmation = t('auth.passwordMismatch')
      if (withEmail && !values.email.trim()) errors.email = t('account.emailRequired')
      if (withEmail && !values.verification_code.trim()) errors.verification_code = t('account.codeRequired')
      return errors
    },
  })
  const submit = (values: RegisterValues) => {
    if (!turnstile.ready()) return
    signUp.mutate(
      { payload: toPayload(values, affCode, withEmail), turnstileToken: turnstile.token },
      {
        onSuccess: () => {
          notifySuccess(t('auth.registered'))
          navigate('/login')
        },
      },
    )
  }
  const emailReady = () => !form.validateField('email').hasError && turnstile.ready()
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('auth.username')}
          placeholder={t('auth.newUsernamePlaceholder')}
          autoComplete="username"
          required
          maxLength={12}
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label={t('auth.password')}
          placeholder={t('auth.passwordPlaceholder')}
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          required
          {...form.getInputProps('confirmation')}
        />
        {withEmail && (
          <EmailCodeFields
            emailInput={form.getInputProps('email')}
            codeInput={form.getInputProps('verification_code')}
            email={form.getValues().email.trim()}
            turnstileToken={turnstile.token}
            check={emailReady}
          />
        )}
        {affCode && <Text size="sm">{t('auth.invitedWith', { code: affCode })}</Text>}
        {turnstile.widget}
        <Button type="submit" fullWidth loading={signUp.isPending}>
          {t('auth.signUp')}
        </Button>
      </Stack>
    </form>
  )
}

export function RegisterPage() {
  const { t } = useTranslation()
  const [searchParams] = useSearchParams()
  const status = useStatus()
  const closed = status.register_enabled === false || status.password_register_enabled === false
  return (
    <AuthCard title={t('auth.signUpTitle')}>
      <Stack gap="md">
        {closed ? (
          <Alert color="gray">{t('auth.registerDisabled')}</Alert>
        ) : (
          <RegisterForm
            affCode={searchParams.get('aff') ?? ''}
            withEmail={status.email_verification === true}
          />
        )}
        <Text size="sm" ta="center">
          {t('auth.haveAccount')}{' '}
          <Anchor component={Link} to="/login" underline="always">
            {t('auth.signIn')}
          </Anchor>
        </Text>
      </Stack>
    </AuthCard>
  )
}
