import { Alert, Container } from '@mantine/core'
import { IconLock } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Navigate, Outlet } from 'react-router'
import { isAdmin, useStoredUser } from '@/lib/user-store.ts'

/** Pages for signed-in users: with no user stored locally the visitor goes to /login. */
export function RequireSignIn() {
  const user = useStoredUser()
  if (!user) return <Navigate to="/login" replace />
  return <Outlet />
}

/** Administrator pages; the server enforces the same rule, this only spares a useless screen. */
export function RequireAdmin() {
  const { t } = useTranslation()
  const user = useStoredUser()
  if (!isAdmin(user)) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" icon={<IconLock />} title={t('permission.title')}>
          {t('permission.message')}
        </Alert>
      </Container>
    )
  }
  return <Outlet />
}
