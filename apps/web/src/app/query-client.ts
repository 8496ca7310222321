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
