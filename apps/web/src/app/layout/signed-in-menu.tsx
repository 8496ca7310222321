import { Button, Menu } from '@mantine/core'
import type { SessionUser } from '@one-api/contracts'
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { useSignOut } from '@/features/auth/api/sign-out.ts'

/** The username with a sign-out action; its own chunk, since the sign-in page never shows it. */
export function SignedInMenu({ user, defaultOpened }: { user: SessionUser; defaultOpened?: boolean }) {
  const { t } = useTranslation()
  const signOut = useSignOut()
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
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
