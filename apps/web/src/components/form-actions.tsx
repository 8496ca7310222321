import { Button, Group } from '@mantine/core'
import { useTranslation } from 'react-i18next'

/** A form's closing row: the submit button (busy while `submitting`) and Cancel. */
export function FormActions({
  submitLabel,
  submitting,
  onCancel,
}: {
  submitLabel: string
  submitting: boolean
  onCancel: () => void
}) {
  const { t } = useTranslation()
  return (
    <Group>
      <Button type="submit" loading={submitting}>
        {submitLabel}
      </Button>
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
    </Group>
  )
}
