import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** The part of GET /api/user/self the top-up screens show. */
export interface Balance {
  quota: number
  used_quota: number
}

/**
 * The signed-in user's own record, under the key every screen showing it shares, so a redeemed
 * code updates the balance wherever it is shown.
 */
export const selfKey = ['user', 'self'] as const

export const balanceQueryOptions = () =>
  queryOptions({ queryKey: selfKey, queryFn: () => apiGet<Balance>('/api/user/self') })

export const useBalance = () => useQuery(balanceQueryOptions())
