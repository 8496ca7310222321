import { Alert } from '@mantine/core'
import { IconInfoCircle } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ContentView } from '@/components/content-view.tsx'
import { readItem, StorageKey, writeItem } from '@/lib/local-storage.ts'
import { useSiteContent } from '../api/get-site-content.ts'

/** The administrator's notice; once dismissed it stays hidden until its text changes. */
export function NoticeAlert() {
  const { t } = useTranslation()
  const notice = useSiteContent('notice')
  const [dismissed, setDismissed] = useState(() => readItem(StorageKey.dismissedNotice))
  const text = notice.data ?? ''
  if (!text || dismissed === text) return null
  return (
    <Alert
      icon={<IconInfoCircle />}
      title={t('home.noticeTitle')}
      withCloseButton
      closeButtonLabel={t('home.dismissNotice')}
      onClose={() => {
        writeItem(StorageKey.dismissedNotice, text)
        setDismissed(text)
      }}
    >
      <ContentView content={text} title={t('home.noticeTitle')} />
    </Alert>
  )
}
