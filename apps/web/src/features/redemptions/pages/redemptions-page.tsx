import { useTranslation } from 'react-i18next'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

export function RedemptionsPage() {
  const { t } = useTranslation()
  return <PlaceholderPage title={t('redemptions.title')} description={t('redemptions.description')} />
}
