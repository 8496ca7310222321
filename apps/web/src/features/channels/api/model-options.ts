import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { StorageKey, writeItem } from '@/lib/local-storage.ts'

/** GET /api/models: each channel type's related models, also kept locally as `channel_models`. */
export const relatedModelsQueryOptions = queryOptions({
  queryKey: ['models', 'by-type'],
  queryFn: async () => {
    const byType = await apiGet<Record<string, string[]>>('/api/models')
    writeItem(StorageKey.channelModels, JSON.stringify(byType))
    return byType
  },
  staleTime: Number.POSITIVE_INFINITY,
})

/** GET /api/channel/models: every model the gateway knows. */
export const allModelsQueryOptions = queryOptions({
  queryKey: ['models', 'all'],
  queryFn: async () => (await apiGet<{ id: string }[]>('/api/channel/models')).map((model) => model.id),
  staleTime: Number.POSITIVE_INFINITY,
})

/** GET /api/group/: the group names of the group ratio setting. */
export const groupsQueryOptions = queryOptions({
  queryKey: ['groups'],
  queryFn: () => apiGet<string[]>('/api/group/'),
  staleTime: 60_000,
})

export const useRelatedModels = () => useQuery(relatedModelsQueryOptions)
export const useAllModels = () => useQuery(allModelsQueryOptions)
export const useGroups = () => useQuery(groupsQueryOptions)
