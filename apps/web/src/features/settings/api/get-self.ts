import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** GET /api/user/self: the signed-in user's own record (never a password or access token). */
export interface SelfUser {
  id: number
  username: string
  display_name: string
  role: number
  status: number
  email: string
  github_id: string
  wechat_id?: string
  quota: number
  used_quota: number
  request_count: number
  group: string
  aff_code: string
}

export const selfQueryKey = ['user', 'self'] as const

export const fetchSelf = () => apiGet<SelfUser>('/api/user/self')

export const selfQueryOptions = () => queryOptions({ queryKey: selfQueryKey, queryFn: fetchSelf })

export const useSelf = () => useQuery(selfQueryOptions())
