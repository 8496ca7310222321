import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { ContentView } from '@/components/content-view.tsx'
import { useStatus } from '@/lib/status.ts'
import { useSiteContent } from '../api/get-site-content.ts'

/** The home page when the administrator has written none: name, version and the About text. */
export function DefaultWelcome() {
  const { t } = useTranslation()
  const status = useStatus()
  const about = useSiteContent('about')
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={2}>{t('home.welcome', { name: status.systemName })}</Title>
          {status.version && <Badge variant="light">{status.version}</Badge>}
        </Group>
        <Text>{t('home.tagline')}</Text>
      </Stack>
      <Card withBorder padding="lg">
        <Title order={4} mb="sm">
          {t('home.aboutTitle')}
        </Title>
        {about.data ? (
          <ContentView content={about.data} title={t('home.aboutTitle')} />
        ) : (
          <Text c="dimmed">{t('home.aboutEmpty')}</Text>
        )}
      </Card>
    </Stack>
  )
}
