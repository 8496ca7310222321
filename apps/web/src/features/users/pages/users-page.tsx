import { Button, Group, Stack, Text, Title } from '@mantine/core'
import { ITEMS_PER_PAGE } from '@one-api/contracts'
import { IconRefresh, IconUserPlus } from '@tabler/icons-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { DataTable } from '@/components/data-table/data-table.tsx'
import { sortRows } from '@/components/data-table/sort-rows.ts'
import { useTableParams } from '@/components/data-table/use-table-params.ts'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { useStoredUser } from '@/lib/user-store.ts'
import { useUsers } from '../api/list-users.ts'
import { userColumns } from '../components/user-columns.tsx'
import { readOrder, type UserFilter, UserFilters } from '../components/user-filters.tsx'
import { UserRowActions } from '../components/user-row-actions.tsx'
import { truncateUsername } from '../lib/user-display.ts'

const FILTERS: UserFilter[] = ['ip', 'by', 'view']

/** /user: every account, for administrators. */
export function UsersPage() {
  const { t } = useTranslation()
  const status = useStatus()
  const actor = useStoredUser()
  const table = useTableParams(FILTERS)
  const { page, keyword, sort, order, filters } = table.params
  const sameIp = filters.view === 'sameip'
  const searching = !sameIp && (keyword !== '' || filters.ip !== '')
  const list = useUsers({
    page,
    order: readOrder(filters.by),
    keyword: sameIp ? '' : keyword,
    ip: sameIp ? '' : filters.ip,
    sameIp,
  })
  const quota = (value: number) => renderQuota(value, status.displayInCurrency, status.quotaPerUnit)
  let emptyMessage = t('users.empty')
  if (sameIp) emptyMessage = t('users.noSameIp')
  else if (searching) emptyMessage = t('users.noMatch')
  return (
    <Stack gap="md">
      <Title order={2}>{t('users.title')}</Title>
      <UserFilters table={table} />
      {sameIp && <Text size="sm">{t('users.sameIpHelp')}</Text>}
      <DataTable
        label={t('users.title')}
        columns={userColumns(t, quota, sameIp || filters.ip !== '')}
        rows={list.data && sortRows(list.data, sort, order)}
        rowKey={(row) => row.id}
        loading={list.isFetching}
        error={list.isError ? list.error.message : undefined}
        onRetry={() => void list.refetch()}
        emptyMessage={emptyMessage}
        sort={{ column: sort, order, onToggle: table.toggleSort }}
        pager={searching ? undefined : { page, pageSize: ITEMS_PER_PAGE, onChange: table.setPage }}
        cardTitle={(row) => `${truncateUsername(row.username)} #${row.id}`}
        rowActions={(row) => <UserRowActions user={row} actorRole={actor?.role ?? 0} />}
      />
      <Group gap="sm">
        <Button component={Link} to="/user/add" leftSection={<IconUserPlus size={16} />}>
          {t('users.add')}
        </Button>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void list.refetch()}>
          {t('users.refresh')}
        </Button>
      </Group>
    </Stack>
  )
}
