import { Alert, Stack, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useStatus } from '@/lib/status.ts'

/** The chat web app the administrator configured (ChatLink), embedded in the console. */
export function ChatPage() {
  const { t } = useTranslation()
  const { chatLink } = useStatus()
  return (
    <Stack gap="sm">
      <Title order={2}>{t('chat.title')}</Title>
      {chatLink ? (
        <iframe
          src={chatLink}
          title={t('chat.title')}
          style={{ width: '100%', height: 'calc(100vh - 200px)', border: 0 }}
        />
      ) : (
        <Alert color="gray">{t('chat.notConfigured')}</Alert>
      )}
    </Stack>
  )
}
