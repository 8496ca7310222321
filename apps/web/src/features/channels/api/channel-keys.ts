import type { ChannelSortKey } from '@one-api/contracts/channel'
import type { SortOrder } from '@/components/data-table/use-table-params.ts'

export interface ChannelListParams {
  /** 0-based page; ignored while searching. */
  page: number
  keyword: string
  sort: ChannelSortKey | undefined
  order: SortOrder
}

/** Query keys of the channel screens; every change invalidates `channelKeys.all`. */
export const channelKeys = {
  all: ['channels'] as const,
  list: (params: ChannelListParams) => ['channels', 'list', params] as const,
  detail: (id: number) => ['channels', 'detail', id] as const,
}
