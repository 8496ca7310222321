import { Button } from '@mantine/core'
import { RedemptionStatus } from '@one-api/contracts'
import type { RedemptionView } from '@one-api/contracts/redemption'
import { IconCopy } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ConfirmButton } from '@/components/confirm-button.tsx'
import { copyText } from '@/lib/clipboard.ts'
import { notifySuccess } from '@/lib/notify.ts'
import { useDeleteRedemption } from '../api/delete-redemption.ts'
import { useUpdateRedemptionStatus } from '../api/update-redemption-status.ts'

interface RedemptionRowActionsProps {
  redemption: RedemptionView
  /** Called with the code the browser refused to copy, to show it for copying by hand. */
  onCopyFailed: (code: string) => void
}

/** Per row: copy the code, enable or disable it (not once used), edit, delete (confirmed). */
export function RedemptionRowActions({ redemption, onCopyFailed }: RedemptionRowActionsProps) {
  const { t } = useTranslation()
  const status = useUpdateRedemptionStatus()
  const remove = useDeleteRedemption()
  const name = `${redemption.name} #${redemption.id}`
  const used = redemption.status === RedemptionStatus.used
  const enabled = redemption.status === RedemptionStatus.unused
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconCopy size={14} />}
        aria-label={t('redemptions.copyOf', { name })}
        onClick={async () => {
          if (!(await copyText(redemption.key))) onCopyFailed(redemption.key)
        }}
      >
        {t('redemptions.copy')}
      </Button>
      <Button
        size="compact-sm"
        variant="default"
        disabled={used}
        loading={status.isPending}
        aria-label={t(enabled ? 'redemptions.disableOf' : 'redemptions.enableOf', { name })}
        onClick={() =>
          status.mutate(
            { id: redemption.id, status: enabled ? RedemptionStatus.disabled : RedemptionStatus.unused },
            {
              onSuccess: () => notifySuccess(t(enabled ? 'redemptions.disabled' : 'redemptions.enabled')),
            },
          )
        }
      >
        {t(enabled ? 'redemptions.disable' : 'redemptions.enable')}
      </Button>
      <Button
        size="compact-sm"
        variant="light"
        component={Link}
        to={`/redemption/edit/${redemption.id}`}
        aria-label={t('redemptions.editOf', { name })}
      >
        {t('redemptions.edit')}
      </Button>
      <ConfirmButton
        size="compact-sm"
        variant="light"
        color="red"
        aria-label={t('redemptions.deleteOf', { name })}
        title={t('redemptions.deleteTitle', { name })}
        message={t('redemptions.deleteConfirm')}
        confirmLabel={t('redemptions.delete')}
        onConfirm={() =>
          remove.mutateAsync(redemption.id).then(() => notifySuccess(t('redemptions.deleted')))
        }
      >
        {t('redemptions.delete')}
      </ConfirmButton>
    </>
  )
}
