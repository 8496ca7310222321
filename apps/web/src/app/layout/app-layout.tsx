import { AppShell } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useEffect } from 'react'
import { Outlet, useNavigation } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { useStatus } from '@/lib/status.ts'
import { useStoredUser } from '@/lib/user-store.ts'
import { AppFooter } from './app-footer.tsx'
import { AppHeader } from './app-header.tsx'
import { MobileSidebar } from './mobile-sidebar.tsx'
import { navItemsFor } from './nav-items.ts'

/** Header menu, page, footer. The status record is fetched here, once, when the console starts. */
export function AppLayout() {
  const status = useStatus()
  const user = useStoredUser()
  const [sidebarOpened, sidebar] = useDisclosure(false)
  const items = navItemsFor(user, status.chatLink)
  // Only a page's code is ever awaited on navigation (no route has a loader).
  const pageLoading = useNavigation().state === 'loading'

  useEffect(() => {
    document.title = status.systemName
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (icon) icon.href = status.logo
  }, [status.systemName, status.logo])

  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <AppHeader
          status={status}
          items={items}
          sidebarOpened={sidebarOpened}
          onToggleSidebar={sidebar.toggle}
        />
      </AppShell.Header>
      <MobileSidebar
        opened={sidebarOpened}
        onClose={sidebar.close}
        items={items}
        systemName={status.systemName}
      />
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ flex: 1 }}>{pageLoading ? <Loading /> : <Outlet />}</div>
        <AppFooter status={status} />
      </AppShell.Main>
    </AppShell>
  )
}
