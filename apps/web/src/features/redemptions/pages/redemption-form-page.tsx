import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

/** /redemption/add and /redemption/edit/:id. */
export function RedemptionFormPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  return (
    <PlaceholderPage
      title={id ? t('redemptions.editTitle', { id }) : t('redemptions.addTitle')}
      description={t('redemptions.formDescription')}
    />
  )
}
