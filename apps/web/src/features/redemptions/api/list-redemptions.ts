import type { RedemptionView } from '@one-api/contracts/redemption'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { type RedemptionListParams, redemptionKeys } from './redemption-keys.ts'

/**
 * GET /api/redemption/?p (newest first), or, with a keyword, GET /api/redemption/search?keyword:
 * the code with that ID and those whose name starts with it (not paged).
 */
export function fetchRedemptions({ page, keyword }: RedemptionListParams): Promise<RedemptionView[]> {
  const url = keyword
    ? `/api/redemption/search?keyword=${encodeURIComponent(keyword)}`
    : `/api/redemption/?p=${page}`
  return apiGet<RedemptionView[]>(url).then((rows) => rows ?? [])
}

export const redemptionsQueryOptions = (params: RedemptionListParams) =>
  queryOptions({
    queryKey: redemptionKeys.list(params),
    queryFn: () => fetchRedemptions(params),
    placeholderData: keepPreviousData,
  })

export const useRedemptions = (params: RedemptionListParams) => useQuery(redemptionsQueryOptions(params))
