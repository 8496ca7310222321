import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { queryClient } from '@/lib/query-client.ts'

/**
 * The console's one QueryClient around a page. Each page but the sign-in page is wrapped in it when
 * its chunk loads (the router's `page` helper), so TanStack Query stays out of the first load; the
 * cache lives in the client and outlasts the pages.
 */
export function QueryScope({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
}
