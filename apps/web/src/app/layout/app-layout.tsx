import { useDisclosure } from '@mantine/hooks'
import { lazy, Suspense, useEffect, useState } from 'react'
import { Outlet, useLocation } from 'react-router'
import { Loading } from '@/components/loading.tsx'
import { RouteErrorBoundary } from '@/components/route-error-boundary.tsx'
import { useStatus } from '@/lib/status.ts'
import { useStoredUser } from '@/lib/user-store.ts'
import { AppFooter } from './app-footer.tsx'
import { AppHeader } from './app-header.tsx'
import { navItemsFor } from './nav-items.ts'

// The phone menu (a drawer) is loaded the first time it is opened.
const MobileSidebar = lazy(() =>
  import('./mobile-sidebar.tsx').then((module) => ({ default: module.MobileSidebar })),
)

/**
 * Header menu, page, footer. The status record is fetched here, once, when the console starts.
 * A fixed header over a padded main column (app.css): what Mantine's AppShell draws for a header
 * alone, without its navbar, aside and resizing code in the first load.
 */
export function AppLayout() {
  const status = useStatus()
  const user = useStoredUser()
  const [sidebarOpened, sidebar] = useDisclosure(false)
  const [sidebarUsed, setSidebarUsed] = useState(false)
  const items = navItemsFor(user, status.chatLink)
  const { pathname } = useLocation()

  useEffect(() => {
    document.title = status.systemName
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
    if (icon) icon.href = status.logo
  }, [status.systemName, status.logo])

  return (
    <>
      {/* right-scroll-bar-position: the header keeps its place when a dialog hides the scroll bar (react-remove-scroll). */}
      <header className="app-header right-scroll-bar-position">
        <AppHeader
          status={status}
          items={items}
          sidebarOpened={sidebarOpened}
          onToggleSidebar={() => {
            setSidebarUsed(true)
            sidebar.toggle()
          }}
        />
      </header>
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
      <main className="app-main">
        <div style={{ flex: 1 }}>
          {/* A page's error keeps the header and menu; moving to another page clears it. */}
          <RouteErrorBoundary resetKey={pathname}>
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </div>
        <AppFooter status={status} />
      </main>
    </>
  )
}
