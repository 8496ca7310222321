import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { type UserListParams, type UserView, userKeys } from './user-keys.ts'

function listUrl({ page, order, keyword, ip, sameIp }: UserListParams): string {
  if (sameIp) return `/api/user/sameip?p=${page}`
  if (keyword || ip) return `/api/user/search?${new URLSearchParams({ keyword, ip })}`
  return `/api/user/?p=${page}${order ? `&order=${order}` : ''}`
}

/**
 * GET /api/user/?p&order (10 a page), /api/user/search?keyword&ip (not paged), or
 * /api/user/sameip?p (users grouped by a shared last sign-in address).
 */
export function fetchUsers(params: UserListParams): Promise<UserView[]> {
  return apiGet<UserView[]>(listUrl(params)).then((rows) => rows ?? [])
}

export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: () => fetchUsers(params),
    placeholderData: keepPreviousData,
  })

export const useUsers = (params: UserListParams) => useQuery(usersQueryOptions(params))
