import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

/** /token/add and /token/edit/:id. */
export function TokenFormPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  return (
    <PlaceholderPage
      title={id ? t('tokens.editTitle', { id }) : t('tokens.addTitle')}
      description={t('tokens.formDescription')}
    />
  )
}
