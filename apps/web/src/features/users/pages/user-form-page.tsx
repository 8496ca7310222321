import { useTranslation } from 'react-i18next'
import { useMatch, useParams } from 'react-router'
import { PlaceholderPage } from '@/components/placeholder-page.tsx'

/** /user/add (create), /user/edit/:id (another user, with group and quota) and /user/edit (oneself). */
export function UserFormPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  const adding = useMatch('/user/add') !== null
  const title = adding ? t('users.addTitle') : id ? t('users.editTitle', { id }) : t('users.editSelfTitle')
  return <PlaceholderPage title={title} description={t('users.formDescription')} />
}
