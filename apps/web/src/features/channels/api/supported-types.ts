import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** GET /api/channel/supported_types: the channel types the relay can serve today. */
export const supportedTypesQueryOptions = queryOptions({
  queryKey: ['channels', 'supported-types'],
  queryFn: () => apiGet<number[]>('/api/channel/supported_types'),
  staleTime: Number.POSITIVE_INFINITY,
})

export const useSupportedTypes = () => useQuery(supportedTypesQueryOptions)
