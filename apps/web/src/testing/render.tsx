import { MantineProvider } from '@mantine/core'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { forgetStatus } from '@/lib/status.ts'
import '@/testing/all-catalogues.ts'

/** Renders a screen piece as the console does: Mantine, TanStack Query, a router at `url`. */
export function renderWithProviders(element: ReactElement, url = '/') {
  // Each render starts like a fresh console: the status record is fetched from the test's server.
  forgetStatus()
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [url] })
  const view = render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  )
  return { ...view, router }
}
