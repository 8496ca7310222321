import { Button, Group } from '@mantine/core'
import { IconPlus, IconRefresh } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ConfirmButton } from '@/components/confirm-button.tsx'
import { notifyInfo, notifySuccess } from '@/lib/notify.ts'
import { useDeleteDisabledChannels } from '../api/delete-channel.ts'
import { useTestChannels } from '../api/test-channel.ts'

/** Add, test all, test disabled, delete disabled (confirmed), refresh. */
export function ChannelListFooter({ onRefresh, refreshing }: { onRefresh: () => void; refreshing: boolean }) {
  const { t } = useTranslation()
  const testChannels = useTestChannels()
  const deleteDisabled = useDeleteDisabledChannels()
  const startTest = (scope: 'all' | 'disabled') =>
    testChannels.mutate(scope, { onSuccess: () => notifyInfo(t('channels.testStarted')) })
  return (
    <Group gap="xs">
      <Button component={Link} to="/channel/add" leftSection={<IconPlus size={16} />}>
        {t('channels.add')}
      </Button>
      <Button variant="light" onClick={() => startTest('all')} loading={testChannels.isPending}>
        {t('channels.testAll')}
      </Button>
      <Button variant="light" onClick={() => startTest('disabled')} loading={testChannels.isPending}>
        {t('channels.testDisabled')}
      </Button>
      <ConfirmButton
        variant="light"
        color="red"
        title={t('channels.deleteDisabledTitle')}
        message={t('channels.deleteDisabledConfirm')}
        confirmLabel={t('channels.deleteDisabled')}
        onConfirm={() =>
          deleteDisabled
            .mutateAsync()
            .then((count) => notifySuccess(t('channels.deletedDisabled', { count: Number(count ?? 0) })))
        }
      >
        {t('channels.deleteDisabled')}
      </ConfirmButton>
      <Button
        variant="default"
        onClick={onRefresh}
        loading={refreshing}
        leftSection={<IconRefresh size={16} />}
      >
        {t('channels.refresh')}
      </Button>
    </Group>
  )
}
