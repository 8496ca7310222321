import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core'
import { useMediaQuery } from '@mantine/hooks'
import { Notifications } from '@mantine/notifications'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from 'react-router/dom'
import { StorageKey } from '@/lib/local-storage.ts'
import { TOAST_DURATION } from '@/lib/notify.ts'
import { queryClient } from './query-client.ts'
import { router } from './router.tsx'
import { cssVariablesResolver, theme } from './theme.ts'

const colorSchemeManager = localStorageColorSchemeManager({ key: StorageKey.colorScheme })

/** Toasts sit top-right, or top-centre on screens 600px wide or less. */
function ResponsiveNotifications() {
  const narrow = useMediaQuery('(max-width: 600px)')
  return <Notifications position={narrow ? 'top-center' : 'top-right'} autoClose={TOAST_DURATION.error} />
}

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <ResponsiveNotifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  )
}
