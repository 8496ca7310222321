import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** GET /api/user/aff gives the user's invite code, creating one on first use. */
export const fetchInviteCode = () => apiGet<string>('/api/user/aff')

export const inviteCodeQueryOptions = () =>
  queryOptions({
    queryKey: ['user', 'aff'] as const,
    queryFn: fetchInviteCode,
    staleTime: Number.POSITIVE_INFINITY,
  })

export const useInviteCode = () => useQuery(inviteCodeQueryOptions())

export function inviteLink(code: string): string {
  return `${window.location.origin}/register?aff=${encodeURIComponent(code)}`
}
