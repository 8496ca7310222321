import { Text } from '@mantine/core'
import type { RedemptionView } from '@one-api/contracts/redemption'
import type { TFunction } from 'i18next'
import type { Column } from '@/components/data-table/data-table.tsx'
import { formatTime } from '@/components/data-table/sort-rows.ts'
import { RedemptionStatusBadge } from './redemption-status-badge.tsx'

/** The list's columns; each header sorts the loaded rows by its field. */
export function redemptionColumns(t: TFunction, quota: (value: number) => string): Column<RedemptionView>[] {
  const time = (seconds: number) => (
    <Text size="sm">{seconds > 0 ? formatTime(seconds, '') : t('redemptions.notYet')}</Text>
  )
  return [
    {
      key: 'id',
      header: t('redemptions.columns.id'),
      render: (row) => row.id,
      sortable: true,
      hideOnPhone: true,
    },
    {
      key: 'name',
      header: t('redemptions.columns.name'),
      render: (row) => row.name,
      sortable: true,
      hideOnPhone: true,
    },
    {
      key: 'status',
      header: t('redemptions.columns.status'),
      render: (row) => <RedemptionStatusBadge status={row.status} />,
      sortable: true,
    },
    {
      key: 'quota',
      header: t('redemptions.columns.quota'),
      render: (row) => quota(row.quota),
      sortable: true,
    },
    {
      key: 'created_time',
      header: t('redemptions.columns.created'),
      render: (row) => time(row.created_time),
      sortable: true,
    },
    {
      key: 'redeemed_time',
      header: t('redemptions.columns.redeemed'),
      render: (row) => time(row.redeemed_time),
      sortable: true,
    },
  ]
}
