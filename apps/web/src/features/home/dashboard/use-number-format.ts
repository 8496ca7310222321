import { abbreviateNumber, renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'

/** How dashboard numbers are written: counts abbreviated (12.3k), quota as the site shows it. */
export function useNumberFormat() {
  const status = useStatus()
  return {
    count: (value: number) => abbreviateNumber(value),
    quota: (value: number) => renderQuota(value, status.displayInCurrency, status.quotaPerUnit),
  }
}
