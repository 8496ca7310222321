import { Alert, Stack, Text, Title } from '@mantine/core'
import { RedemptionStatus } from '@one-api/contracts'
import { parseRowId } from '@one-api/contracts/user-admin'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { notifySuccess } from '@/lib/notify.ts'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { useCreateRedemptions } from '../api/create-redemptions.ts'
import { useRedemption } from '../api/get-redemption.ts'
import { useUpdateRedemption } from '../api/update-redemption.ts'
import { NEW_REDEMPTION_VALUES, RedemptionForm } from '../components/redemption-form.tsx'
import { downloadCodes } from '../lib/codes-file.ts'

/** Quota as the console shows it (dollars when currency display is on). */
function useQuotaText() {
  const status = useStatus()
  return (quota: number) => renderQuota(quota, status.displayInCurrency, status.quotaPerUnit)
}

function AddRedemption({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation()
  const create = useCreateRedemptions()
  const quotaText = useQuotaText()
  return (
    <RedemptionForm
      mode="create"
      initialValues={NEW_REDEMPTION_VALUES}
      renderQuota={quotaText}
      submitting={create.isPending}
      onCancel={onDone}
      onSubmit={(payload) =>
        create.mutate(payload, {
          onSuccess: (codes) => {
            downloadCodes(payload.name, codes)
            notifySuccess(t('redemptions.created', { count: codes.length, file: `${payload.name}.txt` }))
            onDone()
          },
        })
      }
    />
  )
}

function EditRedemption({ id, onDone }: { id: number; onDone: () => void }) {
  const { t } = useTranslation()
  const redemption = useRedemption(id)
  const update = useUpdateRedemption()
  const quotaText = useQuotaText()
  if (redemption.isError) return <Alert color="red">{redemption.error.message}</Alert>
  if (!redemption.data) return <Loading />
  const { name, quota, status } = redemption.data
  return (
    <RedemptionForm
      mode="edit"
      id={id}
      used={status === RedemptionStatus.used}
      initialValues={{ name, quota, count: 1 }}
      renderQuota={quotaText}
      submitting={update.isPending}
      onCancel={onDone}
      onSubmit={(payload) =>
        update.mutate(payload, {
          onSuccess: () => {
            notifySuccess(t('redemptions.updated'))
            onDone()
          },
        })
      }
    />
  )
}

/** /redemption/add (creates codes and downloads them) and /redemption/edit/:id. */
export function RedemptionFormPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { id } = useParams()
  const onDone = () => void navigate('/redemption')
  if (id === undefined) {
    return (
      <Stack gap="md">
        <Title order={2}>{t('redemptions.addTitle')}</Title>
        <Text>{t('redemptions.addHelp')}</Text>
        <AddRedemption onDone={onDone} />
      </Stack>
    )
  }
  const rowId = parseRowId(id)
  return (
    <Stack gap="md">
      <Title order={2}>{t('redemptions.editTitle', { id })}</Title>
      {rowId === undefined ? (
        <Alert color="red">{t('redemptions.badId')}</Alert>
      ) : (
        <EditRedemption id={rowId} onDone={onDone} />
      )}
    </Stack>
  )
}
