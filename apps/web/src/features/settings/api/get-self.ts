import { useQuery } from '@tanstack/react-query'
import { selfQueryOptions } from '@/lib/self-query.ts'

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

export const useSelf = () => useQuery(selfQueryOptions<SelfUser>())
