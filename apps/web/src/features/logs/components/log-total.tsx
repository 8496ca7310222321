import { Button, Text } from '@mantine/core'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'
import { useLogStat } from '../api/get-log-stat.ts'
import type { LogFilters } from '../api/log-keys.ts'

/** The quota consumed under the filters, asked for only when the person clicks (keyed by the filters). */
export function LogTotal({ admin, filters }: { admin: boolean; filters: LogFilters }) {
  const { t } = useTranslation()
  const status = useStatus()
  const [revealed, setRevealed] = useState(false)
  const stat = useLogStat(admin, filters, revealed)
  if (!revealed) {
    return (
      <Button variant="light" onClick={() => setRevealed(true)}>
        {t('logs.revealTotal')}
      </Button>
    )
  }
  const quota = stat.data ? renderQuota(stat.data.quota, status.displayInCurrency, status.quotaPerUnit) : '…'
  return (
    <Text fw={600} role="status">
      {t('logs.totalValue', { quota })}
    </Text>
  )
}
