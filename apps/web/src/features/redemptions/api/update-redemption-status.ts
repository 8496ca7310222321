import type { RedemptionStatusInput, RedemptionView } from '@one-api/contracts/redemption'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPut } from '@/lib/api-client.ts'
import { redemptionKeys } from './redemption-keys.ts'

/** PUT /api/redemption/?status_only=true: enable (1) or disable (2) a code not yet used. */
export const updateRedemptionStatus = (input: RedemptionStatusInput) =>
  apiPut<RedemptionView>('/api/redemption/?status_only=true', input)

export function useUpdateRedemptionStatus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateRedemptionStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionKeys.all }),
  })
}
