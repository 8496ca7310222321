import { Stack } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { ContentView } from '@/components/content-view.tsx'
import { Loading } from '@/components/loading.tsx'
import { useSiteContent } from '../api/get-site-content.ts'
import { DefaultWelcome } from '../components/default-welcome.tsx'
import { NoticeAlert } from '../components/notice-alert.tsx'

export function HomePage() {
  const { t } = useTranslation()
  const content = useSiteContent('home_page_content')
  if (content.isPending) return <Loading />
  const text = content.data ?? ''
  return (
    <Stack gap="lg">
      <NoticeAlert />
      {text ? <ContentView content={text} title={t('nav.home')} /> : <DefaultWelcome />}
    </Stack>
  )
}
