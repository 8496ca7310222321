import { useTranslation } from 'react-i18next'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

export function ChannelsPage() {
  const { t } = useTranslation()
  return <PlaceholderPage title={t('channels.title')} description={t('channels.description')} />
}
