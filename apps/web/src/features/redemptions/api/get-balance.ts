import { useQuery } from '@tanstack/react-query'
import { selfQueryOptions } from '@/lib/self-query.ts'

/** The part of GET /api/user/self the top-up screens show. */
export interface Balance {
  quota: number
  used_quota: number
}

export const balanceQueryOptions = () => selfQueryOptions<Balance>()

export const useBalance = () => useQuery(balanceQueryOptions())
