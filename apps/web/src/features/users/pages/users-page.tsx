import { useTranslation } from 'react-i18next'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

export function UsersPage() {
  const { t } = useTranslation()
  return <PlaceholderPage title={t('users.title')} description={t('users.description')} />
}
