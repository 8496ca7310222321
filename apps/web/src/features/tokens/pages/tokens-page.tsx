import { useTranslation } from 'react-i18next'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

export function TokensPage() {
  const { t } = useTranslation()
  return <PlaceholderPage title={t('tokens.title')} description={t('tokens.description')} />
}
