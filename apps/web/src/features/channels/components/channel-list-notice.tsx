import { Alert } from '@mantine/core'
import { IconInfoCircle } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { readItem, StorageKey, writeItem } from '@/lib/local-storage.ts'

/** Said once: balances of OpenAI channels and what the channel test does. Dismissal is remembered. */
export function ChannelListNotice() {
  const { t } = useTranslation()
  const [dismissed, setDismissed] = useState(() => readItem(StorageKey.channelNoticeDismissed) === 'true')
  if (dismissed) return null
  return (
    <Alert
      icon={<IconInfoCircle />}
      title={t('channels.noticeTitle')}
      withCloseButton
      closeButtonLabel={t('channels.dismissNotice')}
      onClose={() => {
        writeItem(StorageKey.channelNoticeDismissed, 'true')
        setDismissed(true)
      }}
    >
      {t('channels.notice')}
    </Alert>
  )
}
