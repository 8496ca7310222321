import { useMutation, useQuery } from '@tanstack/react-query'
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
  quota: number
  used_quota: number
  request_count: number
  group: string
  aff_code: string
}

export const selfQueryKey = ['user', 'self'] as const

export function useSelf() {
  return useQuery({ queryKey: selfQueryKey, queryFn: () => apiGet<SelfUser>('/api/user/self') })
}

/** GET /api/user/token makes a new system access token; the previous one stops working. */
export function useGenerateAccessToken() {
  return useMutation({ mutationFn: () => apiGet<string>('/api/user/token') })
}

/** GET /api/user/aff gives the user's invite code, creating one on first use. */
export function useInviteCode(enabled: boolean) {
  return useQuery({
    queryKey: ['user', 'aff'],
    queryFn: () => apiGet<string>('/api/user/aff'),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  })
}

export function inviteLink(code: string): string {
  return `${window.location.origin}/register?aff=${encodeURIComponent(code)}`
}
