import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { userKeys } from './user-keys.ts'

/** GET /api/group/: the groups a user may be put in (the keys of the GroupRatio option). */
export const fetchGroups = () => apiGet<string[]>('/api/group/').then((groups) => groups ?? [])

export const groupsQueryOptions = () =>
  queryOptions({ queryKey: userKeys.groups, queryFn: fetchGroups, staleTime: 60_000 })

export const useGroups = () => useQuery(groupsQueryOptions())
