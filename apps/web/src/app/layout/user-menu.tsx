import { Button, Menu } from '@mantine/core'
import { IconChevronDown, IconLogin, IconLogout, IconUser } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useSignOut } from '@/features/auth/api/sign-out.ts'
import { useStoredUser } from '@/lib/user-store.ts'

/** Right side of the header: the username with a sign-out action, or a sign-in link. */
export function UserMenu() {
  const { t } = useTranslation()
  const user = useStoredUser()
  const signOut = useSignOut()
  if (!user) {
    return (
      <Button component={Link} to="/login" variant="light" leftSection={<IconLogin size={16} />}>
        {t('auth.signIn')}
      </Button>
    )
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          leftSection={<IconUser size={16} />}
          rightSection={<IconChevronDown size={14} />}
        >
          {user.username}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
          {t('auth.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
