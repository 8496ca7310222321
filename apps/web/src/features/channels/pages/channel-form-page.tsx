import { Alert, Stack, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { useChannel } from '../api/get-channel.ts'
import { useSaveChannel } from '../api/save-channel.ts'
import { ChannelForm } from '../components/channel-form.tsx'
import { newChannelValues, valuesOf } from '../lib/channel-form-values.ts'

/** /channel/add and /channel/edit/:id. */
export function ChannelFormPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const params = useParams()
  const id = params.id ? Number(params.id) : undefined
  const channel = useChannel(id)
  const save = useSaveChannel()
  const creating = id === undefined
  let content: ReactNode
  if (!creating && channel.isPending) content = <Loading />
  else if (!creating && !channel.data) content = <Alert color="red">{t('channels.form.loadFailed')}</Alert>
  else
    content = (
      <ChannelForm
        key={id ?? 'new'}
        initialValues={channel.data ? valuesOf(channel.data) : newChannelValues()}
        creating={creating}
        submitting={save.isPending}
        onCancel={() => navigate('/channel')}
        onSubmit={(payload) =>
          save.mutate(
            { id, payload },
            {
              onSuccess: (count) => {
                notifySuccess(
                  creating
                    ? t('channels.form.created', { count: Number(count) })
                    : t('channels.form.updated'),
                )
                navigate('/channel')
              },
            },
          )
        }
      />
    )
  return (
    <Stack gap="md">
      <Title order={2}>{creating ? t('channels.addTitle') : t('channels.editTitle', { id })}</Title>
      {content}
    </Stack>
  )
}
