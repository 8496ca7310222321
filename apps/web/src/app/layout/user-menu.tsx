import { Button } from '@mantine/core'
import { IconLogin, IconUser } from '@tabler/icons-react'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useStoredUser } from '@/lib/user-store.ts'

const SignedInMenu = lazy(() =>
  import('./signed-in-menu.tsx').then((module) => ({ default: module.SignedInMenu })),
)

/** Right side of the header: the username with a sign-out action, or a sign-in link. */
export function UserMenu() {
  const { t } = useTranslation()
  const user = useStoredUser()
  // A click on the stand-in while the menu's chunk downloads opens the menu once it is there.
  const [clickedEarly, setClickedEarly] = useState(false)
  if (!user) {
    return (
      <Button component={Link} to="/login" variant="light" leftSection={<IconLogin size={16} />}>
        {t('auth.signIn')}
      </Button>
    )
  }
  return (
    <Suspense
      fallback={
        <Button variant="subtle" leftSection={<IconUser size={16} />} onClick={() => setClickedEarly(true)}>
          {user.username}
        </Button>
      }
    >
      <SignedInMenu user={user} defaultOpened={clickedEarly} />
    </Suspense>
  )
}
