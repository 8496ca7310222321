import { Group, Stack, Title } from '@mantine/core'
import { CHANNEL_SORT_KEYS, type ChannelSortKey } from '@one-api/contracts/channel'
import { useTranslation } from 'react-i18next'
import { DataTable } from '@/components/data-table/data-table.tsx'
import { SearchBox } from '@/components/data-table/search-box.tsx'
import { useTableParams } from '@/components/data-table/use-table-params.ts'
import { CHANNEL_PAGE_SIZE, useChannels } from '../api/list-channels.ts'
import { useSupportedTypes } from '../api/supported-types.ts'
import { channelColumns } from '../components/channel-columns.tsx'
import { ChannelListFooter } from '../components/channel-list-footer.tsx'
import { ChannelListNotice } from '../components/channel-list-notice.tsx'
import { ChannelRowActions } from '../components/channel-row-actions.tsx'

const isSortKey = (value: string | undefined): value is ChannelSortKey =>
  CHANNEL_SORT_KEYS.some((key) => key === value)

/** /channel: every upstream channel, searched, sorted and paged by the server. */
export function ChannelsPage() {
  const { t } = useTranslation()
  const table = useTableParams()
  const { page, keyword, order } = table.params
  const sort = isSortKey(table.params.sort) ? table.params.sort : undefined
  const channels = useChannels({ page, keyword, sort, order })
  const supportedTypes = useSupportedTypes()
  return (
    <Stack gap="md">
      <Title order={2}>{t('channels.title')}</Title>
      <ChannelListNotice />
      <Group gap="sm" align="flex-start">
        <SearchBox
          value={keyword}
          onSearch={table.setKeyword}
          label={t('channels.searchLabel')}
          placeholder={t('channels.searchPlaceholder')}
        />
      </Group>
      <DataTable
        label={t('channels.tableLabel')}
        columns={channelColumns(t, supportedTypes.data)}
        rows={channels.data}
        rowKey={(row) => row.id}
        loading={channels.isFetching}
        error={channels.error?.message}
        onRetry={() => void channels.refetch()}
        emptyMessage={t('channels.empty')}
        sort={{ column: sort, order, onToggle: table.toggleSort }}
        pager={keyword ? undefined : { page, pageSize: CHANNEL_PAGE_SIZE, onChange: table.setPage }}
        rowActions={(row) => <ChannelRowActions channel={row} />}
        cardTitle={(row) => `#${row.id} ${row.name}`}
      />
      <ChannelListFooter onRefresh={() => void channels.refetch()} refreshing={channels.isFetching} />
    </Stack>
  )
}
