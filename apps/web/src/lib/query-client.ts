import { QueryClient } from '@tanstack/react-query'

/**
 * The API client already tells the user about every failure, so a retry would only repeat the
 * toast; a refetch on window focus would surprise someone editing a form.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
})

/**
 * Everything cached for the previous user goes when the user changes (sign-in, sign-out, a deleted
 * account). The sign-in page imports this module on demand: TanStack Query is not in its first load.
 */
export function forgetUserQueries(): void {
  queryClient.removeQueries()
}
