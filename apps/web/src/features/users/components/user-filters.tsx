import { Group, SegmentedControl, Select } from '@mantine/core'
import { USER_LIST_ORDERS, type UserListOrder } from '@one-api/contracts/user-admin'
import { useTranslation } from 'react-i18next'
import { SearchBox } from '@/components/data-table/search-box.tsx'
import type { TableParamsControl } from '@/components/data-table/use-table-params.ts'

export type UserFilter = 'ip' | 'by' | 'view'

export function readOrder(value: string): UserListOrder | '' {
  return (USER_LIST_ORDERS as readonly string[]).includes(value) ? (value as UserListOrder) : ''
}

/**
 * The view (every user, or those sharing a sign-in address), the search by keyword and by IP, and
 * the server's order. The same-IP view is a fixed grouping, so it has no search or order.
 */
export function UserFilters({ table }: { table: TableParamsControl<UserFilter> }) {
  const { t } = useTranslation()
  const { keyword, filters } = table.params
  const sameIp = filters.view === 'sameip'
  return (
    <Group gap="sm" align="flex-end">
      <SegmentedControl
        aria-label={t('users.viewLabel')}
        value={sameIp ? 'sameip' : 'all'}
        onChange={(view) => table.setFilters({ view: view === 'sameip' ? 'sameip' : '' })}
        data={[
          { value: 'all', label: t('users.views.all') },
          { value: 'sameip', label: t('users.views.sameIp') },
        ]}
      />
      {!sameIp && (
        <>
          <SearchBox
            value={keyword}
            label={t('users.searchLabel')}
            placeholder={t('users.searchPlaceholder')}
            onSearch={table.setKeyword}
          />
          <SearchBox
            value={filters.ip}
            label={t('users.ipLabel')}
            placeholder={t('users.ipPlaceholder')}
            onSearch={(ip) => table.setFilters({ ip })}
          />
          <Select
            aria-label={t('users.orderLabel')}
            w={200}
            allowDeselect={false}
            value={readOrder(filters.by)}
            onChange={(value) => table.setFilters({ by: value ?? '' })}
            data={[
              { value: '', label: t('users.orders.default') },
              { value: 'quota', label: t('users.orders.quota') },
              { value: 'used_quota', label: t('users.orders.used_quota') },
              { value: 'request_count', label: t('users.orders.request_count') },
            ]}
          />
        </>
      )}
    </Group>
  )
}
