import { Group, Stack, Title } from '@mantine/core'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '@/components/data-table/data-table.tsx'
import { useTableParams } from '@/components/data-table/use-table-params.ts'
import { useStatus } from '@/lib/status.ts'
import { isAdmin, useStoredUser } from '@/lib/user-store.ts'
import { LOG_PAGE_SIZE, useLogs } from '../api/list-logs.ts'
import type { LogFilters } from '../api/log-keys.ts'
import { logColumns } from '../components/log-columns.tsx'
import { LogFiltersForm } from '../components/log-filters.tsx'
import { LogTotal } from '../components/log-total.tsx'
import { defaultEndTimestamp } from '../lib/log-display.ts'

const FILTER_NAMES = [
  'type',
  'token_name',
  'model_name',
  'start_timestamp',
  'end_timestamp',
  'username',
  'channel',
] as const

/** /log: an administrator sees every user's logs, anyone else their own. Filters live in the URL. */
export function LogsPage() {
  const { t } = useTranslation()
  const admin = isAdmin(useStoredUser())
  const status = useStatus()
  const table = useTableParams(FILTER_NAMES)
  // The period defaults to "from the epoch to an hour from now", fixed when the page opens.
  const [defaultEnd] = useState(() => String(defaultEndTimestamp()))
  const filters = useMemo<LogFilters>(
    () => ({
      ...table.params.filters,
      start_timestamp: table.params.filters.start_timestamp || '0',
      end_timestamp: table.params.filters.end_timestamp || defaultEnd,
    }),
    [table.params.filters, defaultEnd],
  )
  const logs = useLogs(admin, filters, table.params.page)
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={2}>{t('logs.title')}</Title>
        {/* New filters hide the previous total again. */}
        <LogTotal key={JSON.stringify(filters)} admin={admin} filters={filters} />
      </Group>
      <LogFiltersForm admin={admin} value={filters} onApply={(next) => table.setFilters(next)} />
      <DataTable
        label={t('logs.tableLabel')}
        columns={logColumns(t, admin, status)}
        rows={logs.data}
        rowKey={(row) => row.id}
        loading={logs.isFetching}
        error={logs.error?.message}
        onRetry={() => void logs.refetch()}
        emptyMessage={t('logs.empty')}
        pager={{ page: table.params.page, pageSize: LOG_PAGE_SIZE, onChange: table.setPage }}
        cardTitle={(row) =>
          `${new Date(row.created_at * 1000).toLocaleString()} · ${row.model_name || row.token_name}`
        }
      />
    </Stack>
  )
}
