import type { ChannelView } from '@one-api/contracts/channel'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { channelKeys } from './channel-keys.ts'

/** GET /api/channel/{id}: the channel without its key. */
export const fetchChannel = (id: number) => apiGet<ChannelView>(`/api/channel/${id}`)

export const channelQueryOptions = (id: number) =>
  queryOptions({ queryKey: channelKeys.detail(id), queryFn: () => fetchChannel(id), staleTime: 0 })

export const useChannel = (id: number | undefined) =>
  useQuery({ ...channelQueryOptions(id ?? 0), enabled: id !== undefined })
