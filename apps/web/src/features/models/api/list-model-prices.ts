import type { ModelPriceView } from '@one-api/contracts/model-price'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/**
 * GET /api/user/available_models?prices=true: the models the user's group reaches through enabled
 * channels, with what they cost after the group ratio (and, for administrators, their channels).
 */
export const fetchModelPrices = () => apiGet<ModelPriceView[]>('/api/user/available_models?prices=true')

export const modelPricesQueryOptions = () =>
  queryOptions({ queryKey: ['models', 'prices'] as const, queryFn: fetchModelPrices, staleTime: 30_000 })

export const useModelPrices = () => useQuery(modelPricesQueryOptions())
