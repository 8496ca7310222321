import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { type UserView, userKeys } from './user-keys.ts'

/** GET /api/user/{id}: a user whose role is lower than the administrator's (root: anyone). */
export const fetchUser = (id: number) => apiGet<UserView>(`/api/user/${id}`)

export const userQueryOptions = (id: number) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: () => fetchUser(id) })

export const useUser = (id: number) => useQuery(userQueryOptions(id))
