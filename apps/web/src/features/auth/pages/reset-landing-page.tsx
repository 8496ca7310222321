import { Alert, Anchor, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core'
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react'
import { useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { resetPassword } from '../api/email.ts'
import { AuthCard } from '../components/auth-card.tsx'

/**
 * /user/reset?email&token: the link of the reset mail. Confirming sets a new random password, shown
 * here once (the link works once); the person signs in with it and may change it in their profile.
 */
export function ResetLandingPage() {
  const { t } = useTranslation()
  const [searchParams] = useSearchParams()
  const email = searchParams.get('email') ?? ''
  const token = searchParams.get('token') ?? ''
  const reset = useMutation({ mutationFn: () => resetPassword(email, token) })
  const password = reset.data
  return (
    <AuthCard title={t('reset.confirmTitle')}>
      <Stack gap="md">
        {!email || !token ? (
          <Alert color="yellow">{t('reset.badLink')}</Alert>
        ) : password ? (
          <>
            <Alert color="blue" icon={<IconKey />} title={t('reset.doneTitle')}>
              {t('reset.doneHelp')}
            </Alert>
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <TextInput
                label={t('reset.newPassword')}
                value={password}
                readOnly
                style={{ flex: 1 }}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
              <CopyButton value={password}>
                {({ copied, copy }) => (
                  <Button
                    variant="light"
                    onClick={copy}
                    leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  >
                    {copied ? t('reset.copied') : t('reset.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Button component={Link} to="/login">
              {t('auth.signIn')}
            </Button>
          </>
        ) : (
          <>
            <Text size="sm">{t('reset.confirmHelp')}</Text>
            <TextInput label={t('account.email')} value={email} readOnly />
            <Button onClick={() => reset.mutate()} loading={reset.isPending}>
              {t('reset.confirm')}
            </Button>
          </>
        )}
        {!password && (
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/reset">
              {t('reset.askAgain')}
            </Anchor>
          </Text>
        )}
      </Stack>
    </AuthCard>
  )
}
