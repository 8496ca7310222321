import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core'
import { useEffect } from 'react'
import { BrowserRouter, useNavigate } from 'react-router'
import { RouteErrorBoundary } from '@/components/route-error-boundary.tsx'
import { StorageKey } from '@/lib/local-storage.ts'
import { registerNavigate } from '@/lib/navigation.ts'
import { AppRoutes } from './router.tsx'
import { cssVariablesResolver, theme } from './theme.ts'
import { ToastHost } from './toast-host.tsx'

const colorSchemeManager = localStorageColorSchemeManager({ key: StorageKey.colorScheme })

/** Hands the router's navigate to code outside React (the API client's redirect on a 401). */
function NavigateRegistration() {
  const navigate = useNavigate()
  useEffect(() => registerNavigate((to) => void navigate(to)), [navigate])
  return null
}

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <ToastHost />
      {/* No transitions: a page whose code is still downloading shows the loading placeholder at once. */}
      <BrowserRouter useTransitions={false}>
        <NavigateRegistration />
        {/* The outer boundary: an error in the layout itself. */}
        <RouteErrorBoundary>
          <AppRoutes />
        </RouteErrorBoundary>
      </BrowserRouter>
    </MantineProvider>
  )
}
