import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiPost, apiPut } from '@/lib/api-client.ts'
import { channelKeys } from './channel-keys.ts'

/** What the form sends: the fields of POST and PUT /api/channel/. */
export interface ChannelPayload {
  type: number
  name: string
  key: string
  base_url: string
  other: string
  model_mapping: string
  models: string[]
  group: string[]
  config: Record<string, string | number | boolean>
  priority: number | string
  weight: number | string
  batch?: boolean
}

/** POST /api/channel/ (data: how many channels were made) or PUT /api/channel/ with the id. */
export function saveChannel({
  id,
  payload,
}: {
  id?: number
  payload: ChannelPayload
}): Promise<number | unknown> {
  if (id === undefined) return apiPost<number>('/api/channel/', payload)
  return apiPut('/api/channel/', { ...payload, id })
}

export function useSaveChannel() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveChannel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  })
}
