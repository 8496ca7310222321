import { Button, Group, Stack, Title } from '@mantine/core'
import { ITEMS_PER_PAGE } from '@one-api/contracts'
import { IconPlus, IconRefresh } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { DataTable } from '@/components/data-table/data-table.tsx'
import { SearchBox } from '@/components/data-table/search-box.tsx'
import { sortRows } from '@/components/data-table/sort-rows.ts'
import { useTableParams } from '@/components/data-table/use-table-params.ts'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { useRedemptions } from '../api/list-redemptions.ts'
import { redemptionColumns } from '../components/redemption-columns.tsx'
import { RedemptionRowActions } from '../components/redemption-row-actions.tsx'

/** /redemption: the administrators' redemption codes. */
export function RedemptionsPage() {
  const { t } = useTranslation()
  const status = useStatus()
  const table = useTableParams()
  const { page, keyword, sort, order } = table.params
  const list = useRedemptions({ page, keyword })
  // A code the browser refused to copy is put into the search box for copying by hand.
  const [uncopied, setUncopied] = useState<string>()
  const quota = (value: number) => renderQuota(value, status.displayInCurrency, status.quotaPerUnit)
  return (
    <Stack gap="md">
      <Title order={2}>{t('redemptions.title')}</Title>
      <SearchBox
        value={uncopied ?? keyword}
        label={t('redemptions.searchLabel')}
        placeholder={t('redemptions.searchPlaceholder')}
        onSearch={(text) => {
          setUncopied(undefined)
          table.setKeyword(text)
        }}
      />
      <DataTable
        label={t('redemptions.title')}
        columns={redemptionColumns(t, quota)}
        rows={list.data && sortRows(list.data, sort, order)}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        error={list.isError ? list.error.message : undefined}
        onRetry={() => void list.refetch()}
        emptyMessage={keyword ? t('redemptions.noMatch') : t('redemptions.empty')}
        sort={{ column: sort, order, onToggle: table.toggleSort }}
        pager={keyword ? undefined : { page, pageSize: ITEMS_PER_PAGE, onChange: table.setPage }}
        cardTitle={(row) => `${row.name} #${row.id}`}
        rowActions={(row) => <RedemptionRowActions redemption={row} onCopyFailed={setUncopied} />}
      />
      <Group gap="sm">
        <Button component={Link} to="/redemption/add" leftSection={<IconPlus size={16} />}>
          {t('redemptions.add')}
        </Button>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void list.refetch()}>
          {t('redemptions.refresh')}
        </Button>
      </Group>
    </Stack>
  )
}
