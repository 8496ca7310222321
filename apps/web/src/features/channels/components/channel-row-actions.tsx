import { Button, Select } from '@mantine/core'
import type { ChannelView } from '@one-api/contracts/channel'
import { splitList } from '@one-api/contracts/channel'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ConfirmButton } from '@/components/confirm-button.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { useDeleteChannel } from '../api/delete-channel.ts'
import { useTestChannel } from '../api/test-channel.ts'
import { useUpdateChannelStatus } from '../api/update-channel-status.ts'

/** Per row: the test model, test, delete (confirmed), enable or disable, edit. */
export function ChannelRowActions({ channel }: { channel: ChannelView }) {
  const { t } = useTranslation()
  const [testModel, setTestModel] = useState<string | null>(null)
  const test = useTestChannel()
  const remove = useDeleteChannel()
  const status = useUpdateChannelStatus()
  const name = channel.name
  const enabled = channel.status === 1
  return (
    <>
      <Select
        size="xs"
        w={130}
        aria-label={t('channels.testModel', { name })}
        placeholder={t('channels.defaultTestModel')}
        data={splitList(channel.models)}
        value={testModel}
        onChange={setTestModel}
        clearable
        searchable
        nothingFoundMessage={t('channels.noMatch')}
        comboboxProps={{ withinPortal: true }}
      />
      <Button
        size="xs"
        variant="default"
        aria-label={t('channels.testOf', { name })}
        loading={test.isPending}
        onClick={() =>
          test.mutate(
            { id: channel.id, model: testModel ?? '' },
            {
              onSuccess: (result) =>
                notifySuccess(
                  t('channels.tested', { name, model: result.model, time: result.time.toFixed(2) }),
                ),
            },
          )
        }
      >
        {t('channels.test')}
      </Button>
      <Button
        size="xs"
        variant="default"
        aria-label={enabled ? t('channels.disableOf', { name }) : t('channels.enableOf', { name })}
        loading={status.isPending}
        onClick={() =>
          status.mutate(
            { id: channel.id, status: enabled ? 2 : 1 },
            { onSuccess: () => notifySuccess(enabled ? t('channels.disabled') : t('channels.enabled')) },
          )
        }
      >
        {enabled ? t('channels.disable') : t('channels.enable')}
      </Button>
      <Button
        size="xs"
        variant="default"
        component={Link}
        to={`/channel/edit/${channel.id}`}
        aria-label={t('channels.editOf', { name })}
      >
        {t('channels.edit')}
      </Button>
      <ConfirmButton
        size="xs"
        variant="default"
        aria-label={t('channels.deleteOf', { name })}
        title={t('channels.deleteTitle', { name })}
        message={t('channels.deleteConfirm')}
        confirmLabel={t('channels.delete')}
        onConfirm={() => remove.mutateAsync(channel.id).then(() => notifySuccess(t('channels.deleted')))}
      >
        {t('channels.delete')}
      </ConfirmButton>
    </>
  )
}
