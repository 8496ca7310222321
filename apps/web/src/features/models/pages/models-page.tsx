import { Anchor, Group, Stack, Text, Title } from '@mantine/core'
import { channelTypeInfo } from '@one-api/contracts/channel-types'
import type { ModelPriceView } from '@one-api/contracts/model-price'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { type Column, DataTable } from '@/components/data-table/data-table.tsx'
import { SearchBox } from '@/components/data-table/search-box.tsx'
import { useTableParams } from '@/components/data-table/use-table-params.ts'
import { isAdmin, useStoredUser } from '@/lib/user-store.ts'
import { useModelPrices } from '../api/list-model-prices.ts'
import { filterAndSortModels, isModelSortColumn } from '../lib/sort-models.ts'

/** Enough decimals for a fraction of a cent, without float noise. */
function dollars(value: number): string {
  return `$${Number(value.toPrecision(10)).toLocaleString('en-US', { maximumFractionDigits: 6 })}`
}

/** /models: what each model the user can call costs them, searchable and sortable. */
export function ModelsPage() {
  const { t } = useTranslation()
  const admin = isAdmin(useStoredUser())
  const prices = useModelPrices()
  const table = useTableParams()
  const { keyword, sort, order } = table.params
  const column = isModelSortColumn(sort) ? sort : 'model'
  const rows = prices.data && filterAndSortModels(prices.data, keyword, column, order)
  const groupRatio = prices.data?.[0]?.group_ratio
  const price = (row: ModelPriceView, value: number | null) => {
    if (value === null) return <Text size="sm">{row.model_ratio === null ? t('models.unpriced') : '-'}</Text>
    return (
      <Text size="sm" ff="monospace">
        {dollars(value)}
        <Text span size="xs" ff="body">
          {' '}
          {t(`models.per.${row.unit}`)}
        </Text>
      </Text>
    )
  }
  const columns: Column<ModelPriceView>[] = [
    {
      key: 'model',
      header: t('models.columns.model'),
      sortable: true,
      hideOnPhone: true,
      render: (row) => (
        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {row.model}
        </Text>
      ),
    },
    {
      key: 'input',
      header: t('models.columns.input'),
      sortable: true,
      render: (row) => price(row, row.input),
    },
    {
      key: 'output',
      header: t('models.columns.output'),
      sortable: true,
      render: (row) => price(row, row.output),
    },
    {
      key: 'cached_input',
      header: t('models.columns.cachedInput'),
      sortable: true,
      render: (row) => price(row, row.cached_input),
    },
  ]
  if (admin) {
    columns.push({
      key: 'channels',
      header: t('models.columns.channels'),
      render: (row) => (
        <Group gap="xs">
          {(row.channels ?? []).map((channel) => (
            <Anchor
              key={channel.id}
              component={Link}
              to={`/channel/edit/${channel.id}`}
              size="sm"
              title={channelTypeInfo(channel.type)?.name}
            >
              #{channel.id} {channel.name}
            </Anchor>
          ))}
        </Group>
      ),
    })
  }
  return (
    <Stack gap="md">
      <Title order={2}>{t('models.title')}</Title>
      <Text size="sm">
        {t('models.help')}
        {groupRatio !== undefined && ` ${t('models.groupRatio', { ratio: groupRatio })}`}
      </Text>
      <Group gap="sm" align="flex-end">
        <SearchBox
          value={keyword}
          label={t('models.searchLabel')}
          placeholder={t('models.searchPlaceholder')}
          onSearch={table.setKeyword}
        />
      </Group>
      <DataTable
        label={t('models.title')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.model}
        loading={prices.isFetching}
        error={prices.isError ? prices.error.message : undefined}
        onRetry={() => void prices.refetch()}
        emptyMessage={keyword ? t('models.noMatch') : t('models.empty')}
        sort={{ column, order, onToggle: table.toggleSort }}
        cardTitle={(row) => row.model}
      />
    </Stack>
  )
}
