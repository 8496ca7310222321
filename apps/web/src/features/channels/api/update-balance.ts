import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client.ts'
import { channelKeys } from './channel-keys.ts'

/** GET /api/channel/update_balance/{id}/: asks the provider; 'not supported' for most types. */
export async function updateBalance(id: number): Promise<number> {
  const reply = (await apiRequest<number>('GET', `/api/channel/update_balance/${id}/`)) as {
    balance?: number
  }
  return Number(reply.balance ?? 0)
}

export function useUpdateBalance() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateBalance,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  })
}
