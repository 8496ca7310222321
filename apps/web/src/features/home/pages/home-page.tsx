import { Skeleton, Stack } from '@mantine/core'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { ContentView } from '@/components/content-view.tsx'
import { Loading } from '@/components/loading.tsx'
import { useStoredUser } from '@/lib/user-store.ts'
import { useSiteContent } from '../api/get-site-content.ts'
import { DefaultWelcome } from '../components/default-welcome.tsx'
import { NoticeAlert } from '../components/notice-alert.tsx'

/** The charts are a chunk of their own: visitors who are not signed in never download them. */
const UsageDashboard = lazy(() =>
  import('../dashboard/usage-dashboard.tsx').then((module) => ({ default: module.UsageDashboard })),
)

export function HomePage() {
  const { t } = useTranslation()
  const content = useSiteContent('home_page_content')
  const user = useStoredUser()
  if (content.isPending) return <Loading />
  const text = content.data ?? ''
  return (
    <Stack gap="lg">
      <NoticeAlert />
      {user && (
        <Suspense fallback={<Skeleton height={320} radius="md" />}>
          <UsageDashboard />
        </Suspense>
      )}
      {text ? <ContentView content={text} title={t('nav.home')} /> : <DefaultWelcome />}
    </Stack>
  )
}
