import { Card, Group, Stack, Text, TextInput, Title } from '@mantine/core'
import { IconTrash } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmButton } from '@/components/confirm-button.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { useClearLogs } from '../api/clear-logs.ts'

const DAY_SECONDS = 86_400

/** `datetime-local` text of a moment, in the browser's time zone. */
export function toLocalInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000)
  return local.toISOString().slice(0, 16)
}

/** The default target: 30 days ago. */
export function defaultLogCleanupTarget(now = new Date()): string {
  return toLocalInput(new Date(now.getTime() - 30 * DAY_SECONDS * 1000))
}

/** Deletes the log entries older than a chosen moment (default 30 days ago) and says how many went. */
export function LogCleanup() {
  const { t } = useTranslation()
  const clear = useClearLogs()
  const [target, setTarget] = useState(defaultLogCleanupTarget)
  const seconds = Math.floor(new Date(target).getTime() / 1000)
  const title = t('settings.sections.logCleanup')
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text size="sm">{t('settings.logCleanupHelp')}</Text>
        <Group align="flex-end" gap="xs">
          <TextInput
            type="datetime-local"
            label={t('settings.logCleanupTarget')}
            value={target}
            onChange={(event) => setTarget(event.currentTarget.value)}
            error={Number.isFinite(seconds) ? undefined : t('settings.logCleanupBadDate')}
          />
          <ConfirmButton
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} />}
            loading={clear.isPending}
            disabled={!Number.isFinite(seconds)}
            title={t('settings.logCleanupConfirmTitle')}
            message={t('settings.logCleanupConfirm', { date: target.replace('T', ' ') })}
            confirmLabel={t('settings.logCleanupRun')}
            onConfirm={() =>
              clear.mutate(seconds, {
                onSuccess: (count) => notifySuccess(t('settings.logCleanupDone', { count })),
              })
            }
          >
            {t('settings.logCleanupRun')}
          </ConfirmButton>
        </Group>
        {clear.isSuccess && (
          <Text size="sm" role="status">
            {t('settings.logCleanupDone', { count: clear.data })}
          </Text>
        )}
      </Stack>
    </Card>
  )
}
