import { abbreviateNumber, renderQuota } from '@/lib/quota-format.ts'
import { useStatus } from '@/lib/status.ts'

/**
 * A chart axis in dollars: amounts under one cent keep two significant digits ($0.0042), since
 * the two decimals of the figures would write every tick of a small week as $0.00.
 */
export function axisQuota(quota: number, displayInCurrency: boolean, quotaPerUnit: number): string {
  if (!displayInCurrency) return abbreviateNumber(quota)
  const dollars = quota / quotaPerUnit
  if (dollars === 0 || Math.abs(dollars) >= 0.01) return `$${dollars.toFixed(2)}`
  return `$${Number(dollars.toPrecision(2))}`
}

/** How dashboard numbers are written: counts abbreviated (12.3k), quota as the site shows it. */
export function useNumberFormat() {
  const status = useStatus()
  return {
    count: (value: number) => abbreviateNumber(value),
    quota: (value: number) => renderQuota(value, status.displayInCurrency, status.quotaPerUnit),
    axisQuota: (value: number) => axisQuota(value, status.displayInCurrency, status.quotaPerUnit),
  }
}
