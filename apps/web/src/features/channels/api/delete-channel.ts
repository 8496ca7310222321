import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiDelete } from '@/lib/api-client.ts'
import { channelKeys } from './channel-keys.ts'

/** DELETE /api/channel/{id}/. */
export const deleteChannel = (id: number) => apiDelete(`/api/channel/${id}/`)

/** DELETE /api/channel/disabled: data is how many were deleted. */
export const deleteDisabledChannels = () => apiDelete<number>('/api/channel/disabled')

export function useDeleteChannel() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  })
}

export function useDeleteDisabledChannels() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteDisabledChannels,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  })
}
