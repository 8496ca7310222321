import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core'
import { IconRefresh } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { ContentView } from '@/components/content-view.tsx'
import { useStatus } from '@/lib/status.ts'
import { useCheckUpdate } from '../api/check-update.ts'

/** Compares the running version with the project's latest release; unreachable means a quiet note. */
export function UpdateCheck() {
  const { t } = useTranslation()
  const status = useStatus()
  const check = useCheckUpdate()
  const release = check.data
  const title = t('settings.sections.update')
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text size="sm">{t('settings.currentVersion', { version: status.version || '-' })}</Text>
        <Group>
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} />}
            loading={check.isPending}
            onClick={() => check.mutate()}
          >
            {t('settings.checkUpdate')}
          </Button>
        </Group>
        {check.isSuccess && !release && <Text size="sm">{t('settings.updateUnreachable')}</Text>}
        {release && (
          <Alert
            color={release.tag === status.version ? 'green' : 'blue'}
            title={
              release.tag === status.version
                ? t('settings.upToDate')
                : t('settings.latestRelease', { tag: release.tag, date: release.publishedAt.slice(0, 10) })
            }
          >
            {release.notes && <ContentView content={release.notes} title={release.name} />}
            {release.url && (
              <Anchor href={release.url} target="_blank" rel="noreferrer" size="sm">
                {t('settings.openRelease')}
              </Anchor>
            )}
          </Alert>
        )}
      </Stack>
    </Card>
  )
}
