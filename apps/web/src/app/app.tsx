import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from 'react-router/dom'
import { StorageKey } from '@/lib/local-storage.ts'
import { queryClient } from './query-client.ts'
import { router } from './router.tsx'
import { cssVariablesResolver, theme } from './theme.ts'
import { ToastHost } from './toast-host.tsx'

const colorSchemeManager = localStorageColorSchemeManager({ key: StorageKey.colorScheme })

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <ToastHost />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  )
}
