import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

/** /channel/add and /channel/edit/:id. */
export function ChannelFormPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  return (
    <PlaceholderPage
      title={id ? t('channels.editTitle', { id }) : t('channels.addTitle')}
      description={t('channels.formDescription')}
    />
  )
}
