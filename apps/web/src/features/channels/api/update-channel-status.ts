import type { ChannelView } from '@one-api/contracts/channel'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPut } from '@/lib/api-client.ts'
import { channelKeys } from './channel-keys.ts'

/** PUT /api/channel/ with id and status (1 enable, 2 disable); the reply carries the stored status. */
export const updateChannelStatus = ({ id, status }: { id: number; status: 1 | 2 }) =>
  apiPut<ChannelView>('/api/channel/', { id, status })

export function useUpdateChannelStatus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateChannelStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  })
}
