import type { RedeemCodeInput } from '@one-api/contracts/user-admin'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPost } from '@/lib/api-client.ts'
import { selfQueryKey } from '@/lib/self-query.ts'
import type { Balance } from './get-balance.ts'

/** POST /api/user/topup: redeems a code for the signed-in user; the reply is the quota added. */
export const redeemCode = (input: RedeemCodeInput) => apiPost<number>('/api/user/topup', input)

/** Adds the credited quota to the shown balance at once, then reloads the user's record. */
export function useRedeemCode() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: redeemCode,
    onSuccess: async (amount) => {
      queryClient.setQueryData<Balance>(selfQueryKey, (self) =>
        self ? { ...self, quota: self.quota + amount } : self,
      )
      await queryClient.invalidateQueries({ queryKey: selfQueryKey })
    },
  })
}
