import { Button, Drawer, NavLink, Stack } from '@mantine/core'
import { IconLogin, IconLogout, IconUserPlus } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { useSignOut } from '@/features/auth/api/sign-out.ts'
import { useStoredUser } from '@/lib/user-store.ts'
import { isActive, type NavItem } from './nav-items.ts'

interface MobileSidebarProps {
  opened: boolean
  onClose: () => void
  items: NavItem[]
  systemName: string
}

/** The menu on screens up to 768px: the same items, plus sign-in and sign-up when signed out. */
export function MobileSidebar({ opened, onClose, items, systemName }: MobileSidebarProps) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const user = useStoredUser()
  const signOut = useSignOut()
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={systemName}
      size="75%"
      className="mobile-only"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap={4} component="nav" aria-label={t('header.menu')}>
        {items.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={t(item.label)}
            leftSection={<item.icon size={18} />}
            active={isActive(item, pathname)}
            onClick={onClose}
          />
        ))}
      </Stack>
      <Stack gap="xs" mt="lg">
        {user ? (
          <Button
            variant="light"
            leftSection={<IconLogout size={16} />}
            onClick={() => {
              onClose()
              void signOut()
            }}
          >
            {t('auth.signOutAs', { username: user.username })}
          </Button>
        ) : (
          <>
            <Button component={Link} to="/login" leftSection={<IconLogin size={16} />} onClick={onClose}>
              {t('auth.signIn')}
            </Button>
            <Button
              component={Link}
              to="/register"
              variant="light"
              leftSection={<IconUserPlus size={16} />}
              onClick={onClose}
            >
              {t('auth.signUp')}
            </Button>
          </>
        )}
      </Stack>
    </Drawer>
  )
}
