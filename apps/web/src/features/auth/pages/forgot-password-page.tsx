import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { IconMailCheck } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { requestPasswordReset } from '../api/email.ts'
import { AuthCard } from '../components/auth-card.tsx'
import { useCountdown } from '../lib/use-countdown.ts'
import { useTurnstile } from '../lib/use-turnstile.tsx'

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** /reset: mails a link that sets a new password; another can be asked for after 30 s. */
export function ForgotPasswordPage() {
  const { t } = useTranslation()
  const turnstile = useTurnstile()
  const countdown = useCountdown()
  const [sending, setSending] = useState(false)
  const [sentMessage, setSentMessage] = useState('')
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => (EMAIL_PATTERN.test(value.trim()) ? null : t('account.emailInvalid')) },
  })
  const submit = async ({ email }: { email: string }) => {
    if (!turnstile.ready()) return
    setSending(true)
    try {
      setSentMessage((await requestPasswordReset(email.trim(), turnstile.token)) || t('reset.linkSent'))
      countdown.start()
    } catch {
      // The failure was shown as a toast.
    } finally {
      setSending(false)
    }
  }
  return (
    <AuthCard title={t('reset.title')}>
      <Stack gap="md">
        <Text size="sm">{t('reset.help')}</Text>
        {sentMessage && (
          <Alert color="teal" icon={<IconMailCheck />} role="status">
            {sentMessage}
          </Alert>
        )}
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('account.email')}
              type="email"
              autoComplete="email"
              required
              {...form.getInputProps('email')}
            />
            {turnstile.widget}
            <Button type="submit" fullWidth loading={sending} disabled={countdown.remaining > 0}>
              {countdown.remaining > 0
                ? t('account.resendIn', { seconds: countdown.remaining })
                : t('reset.send')}
            </Button>
          </Stack>
        </form>
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/login">
            {t('reset.backToSignIn')}
          </Anchor>
        </Text>
      </Stack>
    </AuthCard>
  )
}
