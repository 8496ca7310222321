import type { RedemptionView, UpdateRedemptionInput } from '@one-api/contracts/redemption'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPut } from '@/lib/api-client.ts'
import { redemptionKeys } from './redemption-keys.ts'

/** PUT /api/redemption/: a new name and quota (the quota of a used code cannot change). */
export const updateRedemption = (input: UpdateRedemptionInput) =>
  apiPut<RedemptionView>('/api/redemption/', input)

export function useUpdateRedemption() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateRedemption,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionKeys.all }),
  })
}
