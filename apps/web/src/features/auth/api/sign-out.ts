import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { apiGet } from '@/lib/api-client.ts'
import { notifySuccess } from '@/lib/notify.ts'
import { forgetUserQueries } from '@/lib/query-client.ts'
import { clearStoredUser } from '@/lib/user-store.ts'

/** Ends the session on the server, forgets the user and everything cached for them. */
export function useSignOut(): () => Promise<void> {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return async () => {
    try {
      await apiGet('/api/user/logout')
    } finally {
      clearStoredUser()
      forgetUserQueries()
      notifySuccess(t('auth.signedOut'))
      navigate('/login')
    }
  }
}
