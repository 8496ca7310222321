import type { CreateRedemptionInput } from '@one-api/contracts/redemption'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPost } from '@/lib/api-client.ts'
import { redemptionKeys } from './redemption-keys.ts'

/** POST /api/redemption/: `count` codes of `quota` each; the reply is the list of new codes. */
export const createRedemptions = (input: CreateRedemptionInput) =>
  apiPost<string[]>('/api/redemption/', input).then((codes) => codes ?? [])

export function useCreateRedemptions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createRedemptions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionKeys.all }),
  })
}
