import { AppShell } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { lazy, Suspense, useEffect, useState } from 'react'
import { Outlet, useNavigation } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { useStatus } from '@/lib/status.ts'
import { useStoredUser } from '@/lib/user-store.ts'
import { AppFooter } from './app-footer.tsx'
import { AppHeader } from './app-header.tsx'
import { navItemsFor } from './nav-items.ts'

// The phone menu (a drawer) is loaded the first time it is opened.
const MobileSidebar = lazy(() =>
  import('./mobile-sidebar.tsx').then((module) => ({ default: module.MobileSidebar })),
)

/** Header menu, page, footer. The status record is fetched here, once, when the console starts. */
export function AppLayout() {
  const status = useStatus()
  const user = useStoredUser()
  const [sidebarOpened, sidebar] = useDisclosure(false)
  const [sidebarUsed, setSidebarUsed] = useState(false)
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
          onToggleSidebar={() => {
            setSidebarUsed(true)
            sidebar.toggle()
          }}
        />
      </AppShell.Header>
      {sidebarUsed && (
        <Suspense fallback={null}>
          <MobileSidebar
            opened={sidebarOpened}
            onClose={sidebar.close}
            items={items}
            systemName={status.systemName}
          />
        </Suspense>
      )}
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ flex: 1 }}>{pageLoading ? <Loading /> : <Outlet />}</div>
        <AppFooter status={status} />
      </AppShell.Main>
    </AppShell>
  )
}
