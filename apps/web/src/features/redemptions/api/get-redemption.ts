import type { RedemptionView } from '@one-api/contracts/redemption'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { redemptionKeys } from './redemption-keys.ts'

/** GET /api/redemption/{id}. */
export const fetchRedemption = (id: number) => apiGet<RedemptionView>(`/api/redemption/${id}`)

export const redemptionQueryOptions = (id: number) =>
  queryOptions({ queryKey: redemptionKeys.detail(id), queryFn: () => fetchRedemption(id) })

/** The code being edited; not fetched while `id` is undefined (the add form). */
export const useRedemption = (id: number | undefined) =>
  useQuery({ ...redemptionQueryOptions(id ?? 0), enabled: id !== undefined })
