import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiDelete } from '@/lib/api-client.ts'
import { redemptionKeys } from './redemption-keys.ts'

/** DELETE /api/redemption/{id}/. */
export const deleteRedemption = (id: number) => apiDelete<null>(`/api/redemption/${id}/`)

export function useDeleteRedemption() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteRedemption,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionKeys.all }),
  })
}
