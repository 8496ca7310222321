import type { ChannelView } from '@one-api/contracts/channel'
import { ITEMS_PER_PAGE } from '@one-api/contracts/quota'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { type ChannelListParams, channelKeys } from './channel-keys.ts'

export const CHANNEL_PAGE_SIZE = ITEMS_PER_PAGE

/** GET /api/channel/?p&sort&order, or /api/channel/search?keyword&sort&order (ID, name or whole key). */
export function fetchChannels({ page, keyword, sort, order }: ChannelListParams): Promise<ChannelView[]> {
  const query = new URLSearchParams()
  if (keyword) query.set('keyword', keyword)
  else query.set('p', String(page))
  if (sort) {
    query.set('sort', sort)
    query.set('order', order)
  }
  const path = keyword ? '/api/channel/search' : '/api/channel/'
  return apiGet<ChannelView[]>(`${path}?${query}`).then((rows) => rows ?? [])
}

export const channelsQueryOptions = (params: ChannelListParams) =>
  queryOptions({
    queryKey: channelKeys.list(params),
    queryFn: () => fetchChannels(params),
    placeholderData: keepPreviousData,
  })

export const useChannels = (params: ChannelListParams) => useQuery(channelsQueryOptions(params))
