import { Burger, Button, Group, Image, Text, UnstyledButton } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import type { ConsoleStatus } from '@/lib/status.ts'
import { ColorSchemeToggle, LanguageSwitch } from './header-controls.tsx'
import { isActive, type NavItem } from './nav-items.ts'
import { UserMenu } from './user-menu.tsx'

interface AppHeaderProps {
  status: ConsoleStatus
  items: NavItem[]
  sidebarOpened: boolean
  onToggleSidebar: () => void
}

export function AppHeader({ status, items, sidebarOpened, onToggleSidebar }: AppHeaderProps) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
        <Burger
          className="mobile-only"
          opened={sidebarOpened}
          onClick={onToggleSidebar}
          size="sm"
          aria-label={t('header.toggleMenu')}
        />
        <UnstyledButton component={Link} to="/">
          <Group gap={8} wrap="nowrap">
            <Image src={status.logo} alt={t('header.logoAlt')} w={32} h={32} fit="contain" />
            <Text fw={700} size="lg" className="system-name" style={{ whiteSpace: 'nowrap' }}>
              {status.systemName}
            </Text>
          </Group>
        </UnstyledButton>
        <Group
          component="nav"
          gap={2}
          ml="xs"
          wrap="nowrap"
          className="desktop-only header-menu"
          aria-label={t('header.menu')}
        >
          {items.map((item) => (
            <Button
              key={item.to}
              component={Link}
              to={item.to}
              size="compact-md"
              variant={isActive(item, pathname) ? 'light' : 'subtle'}
              leftSection={<item.icon size={16} />}
              style={{ flexShrink: 0 }}
            >
              {t(item.label)}
            </Button>
          ))}
        </Group>
      </Group>
      <Group gap={4} wrap="nowrap">
        <LanguageSwitch />
        <ColorSchemeToggle />
        <div className="desktop-only">
          <UserMenu />
        </div>
      </Group>
    </Group>
  )
}
