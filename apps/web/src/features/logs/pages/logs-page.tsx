import { useTranslation } from 'react-i18next'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

export function LogsPage() {
  const { t } = useTranslation()
  return <PlaceholderPage title={t('logs.title')} description="" />
}
