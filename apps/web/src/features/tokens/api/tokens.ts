import type { TokenView } from '@one-api/contracts/token'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiDelete, apiGet, apiPost, apiPut } from '@/lib/api-client.ts'

/** The server's list order: newest first, or the largest remaining / used quota first. */
export type TokenListOrder = '' | 'remain_quota' | 'used_quota'

/** The token fields the form sends (the console's form body: `models` and `subnet` as comma lists). */
export interface TokenPayload {
  name: string
  remain_quota: number
  expired_time: number
  unlimited_quota: boolean
  models: string
  subnet: string
}

export const tokenKeys = {
  all: ['tokens'] as const,
  rows: (page: number, order: TokenListOrder, keyword: string) =>
    ['tokens', 'rows', page, order, keyword] as const,
  one: (id: number) => ['tokens', 'one', id] as const,
}

/**
 * One page of the user's own tokens (GET /api/token/?p=&order=), or, with a keyword, those whose
 * name starts with it (GET /api/token/search?keyword=, not paged).
 */
export const tokenRowsQuery = (page: number, order: TokenListOrder, keyword: string) =>
  queryOptions({
    queryKey: tokenKeys.rows(page, order, keyword),
    queryFn: () =>
      keyword
        ? apiGet<TokenView[]>(`/api/token/search?keyword=${encodeURIComponent(keyword)}`)
        : apiGet<TokenView[]>(`/api/token/?p=${page}${order ? `&order=${order}` : ''}`),
  })

export const tokenQuery = (id: number) =>
  queryOptions({ queryKey: tokenKeys.one(id), queryFn: () => apiGet<TokenView>(`/api/token/${id}`) })

/** GET /api/user/available_models: the models the user's group can reach, for the model scope. */
export const availableModelsQuery = () =>
  queryOptions({
    queryKey: ['user', 'available_models'] as const,
    queryFn: () => apiGet<string[]>('/api/user/available_models'),
    staleTime: 60_000,
  })

function useInvalidateTokens() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: tokenKeys.all })
}

export function useSaveToken() {
  const invalidate = useInvalidateTokens()
  return useMutation({
    mutationFn: ({ id, payload }: { id?: number; payload: TokenPayload }) =>
      id === undefined
        ? apiPost<TokenView>('/api/token/', payload)
        : apiPut<TokenView>('/api/token/', { ...payload, id }),
    onSuccess: invalidate,
  })
}

/** Enables (1) or disables (2) a token. */
export function useSetTokenStatus() {
  const invalidate = useInvalidateTokens()
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: 1 | 2 }) =>
      apiPut<TokenView>('/api/token/?status_only=true', { id, status }),
    onSuccess: invalidate,
  })
}

export function useDeleteToken() {
  const invalidate = useInvalidateTokens()
  return useMutation({
    mutationFn: (id: number) => apiDelete<null>(`/api/token/${id}/`),
    onSuccess: invalidate,
  })
}
