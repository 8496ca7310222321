import { Button, Group, Select, Stack, Text, Title } from '@mantine/core'
import { ITEMS_PER_PAGE } from '@one-api/contracts'
import type { TokenView } from '@one-api/contracts/token'
import { IconPlus, IconRefresh } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { type Column, DataTable } from '@/components/data-table/data-table.tsx'
import { SearchBox } from '@/components/data-table/search-box.tsx'
import { formatTime, sortRows } from '@/components/data-table/sort-rows.ts'
import { useTableParams } from '@/components/data-table/use-table-params.ts'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { type TokenListOrder, tokenRowsQuery } from '../api/tokens.ts'
import { TokenActions } from '../components/token-actions.tsx'
import { TokenStatusBadge } from '../components/token-status-badge.tsx'

const LIST_ORDERS: TokenListOrder[] = ['', 'remain_quota', 'used_quota']

function readOrder(value: string): TokenListOrder {
  return LIST_ORDERS.includes(value as TokenListOrder) ? (value as TokenListOrder) : ''
}

/** /token: the signed-in user's own API tokens. */
export function TokensPage() {
  const { t } = useTranslation()
  const status = useStatus()
  const table = useTableParams(['by'])
  const { page, keyword, sort, order } = table.params
  const listOrder = readOrder(table.params.filters.by)
  const list = useQuery({
    ...tokenRowsQuery(page, listOrder, keyword),
    placeholderData: (previous) => previous,
  })
  // A value the browser refused to copy is put into the search box for copying by hand.
  const [uncopied, setUncopied] = useState<string>()
  const serverAddress = status.server_address || window.location.origin
  const quota = (value: number) => renderQuota(value, status.displayInCurrency, status.quotaPerUnit)

  const columns: Column<TokenView>[] = [
    {
      key: 'name',
      header: t('tokens.columns.name'),
      render: (row) => row.name,
      sortable: true,
      hideOnPhone: true,
    },
    {
      key: 'status',
      header: t('tokens.columns.status'),
      render: (row) => <TokenStatusBadge status={row.status} />,
      sortable: true,
    },
    {
      key: 'used_quota',
      header: t('tokens.columns.used'),
      render: (row) => quota(row.used_quota),
      sortable: true,
    },
    {
      key: 'remain_quota',
      header: t('tokens.columns.remaining'),
      render: (row) => (row.unlimited_quota ? t('tokens.unlimited') : quota(row.remain_quota)),
      sortable: true,
    },
    {
      key: 'created_time',
      header: t('tokens.columns.created'),
      render: (row) => <Text size="sm">{formatTime(row.created_time, t('tokens.never'))}</Text>,
      sortable: true,
    },
    {
      key: 'expired_time',
      header: t('tokens.columns.expires'),
      render: (row) => <Text size="sm">{formatTime(row.expired_time, t('tokens.never'))}</Text>,
      sortable: true,
    },
  ]

  return (
    <Stack gap="md">
      <Title order={2}>{t('tokens.title')}</Title>
      <Group gap="sm" align="flex-end">
        <SearchBox
          value={uncopied ?? keyword}
          label={t('tokens.searchLabel')}
          placeholder={t('tokens.searchPlaceholder')}
          onSearch={(text) => {
            setUncopied(undefined)
            table.setKeyword(text)
          }}
        />
        <Select
          aria-label={t('tokens.sortLabel')}
          w={200}
          allowDeselect={false}
          value={listOrder}
          onChange={(value) => table.setFilters({ by: value ?? '' })}
          data={[
            { value: '', label: t('tokens.sortBy.default') },
            { value: 'remain_quota', label: t('tokens.sortBy.remaining') },
            { value: 'used_quota', label: t('tokens.sortBy.used') },
          ]}
        />
      </Group>
      <DataTable
        label={t('tokens.title')}
        columns={columns}
        rows={list.data && sortRows(list.data, sort, order)}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        error={list.isError ? list.error.message : undefined}
        onRetry={() => void list.refetch()}
        emptyMessage={keyword ? t('tokens.noMatch') : t('tokens.empty')}
        sort={{ column: sort, order, onToggle: table.toggleSort }}
        pager={keyword ? undefined : { page, pageSize: ITEMS_PER_PAGE, onChange: table.setPage }}
        cardTitle={(row) => row.name}
        rowActions={(row) => (
          <TokenActions
            token={row}
            serverAddress={serverAddress}
            chatLink={status.chatLink}
            onCopyFailed={setUncopied}
          />
        )}
      />
      <Group gap="sm">
        <Button component={Link} to="/token/add" leftSection={<IconPlus size={16} />}>
          {t('tokens.add')}
        </Button>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void list.refetch()}>
          {t('tokens.refresh')}
        </Button>
      </Group>
    </Stack>
  )
}
