import { Button, Group, Stack, Text, TextInput } from '@mantine/core'
import { IconSend } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notifySuccess } from '@/lib/notify.ts'
import { boundAccountsQuery } from '../api/self.ts'
import { useSendTestMail } from '../api/test-mail.ts'

/**
 * "Send a test mail" for the SMTP settings (root): mails the address given (the administrator's own
 * by default) with the saved settings, so save them first. A failure shows the SMTP server's reason.
 */
export function SmtpTestMail() {
  const { t } = useTranslation()
  const self = useQuery(boundAccountsQuery())
  const send = useSendTestMail()
  const [typed, setTyped] = useState<string>()
  const email = typed ?? self.data?.email ?? ''
  return (
    <Stack gap="xs">
      <Text size="sm">{t('smtpTest.help')}</Text>
      <Group align="flex-end" gap="xs">
        <TextInput
          label={t('smtpTest.recipient')}
          type="email"
          value={email}
          onChange={(event) => setTyped(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Button
          variant="light"
          leftSection={<IconSend size={16} />}
          loading={send.isPending}
          disabled={!email.trim()}
          onClick={() => send.mutate(email.trim(), { onSuccess: (message) => notifySuccess(message) })}
        >
          {t('smtpTest.send')}
        </Button>
      </Group>
    </Stack>
  )
}
