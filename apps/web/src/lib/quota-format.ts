/**
 * Short numbers: k (thousands) from 10,000, M (millions) from 1,000,000, B (billions) from
 * 1,000,000,000, with one decimal: 12,345 is 12.3k, 10,000 is 10k, 9,999 stays 9999.
 */
export function abbreviateNumber(value: number): string {
  const units: [threshold: number, divisor: number, suffix: string][] = [
    [1e9, 1e9, 'B'],
    [1e6, 1e6, 'M'],
    [1e4, 1e3, 'k'],
  ]
  for (const [threshold, divisor, suffix] of units) {
    if (Math.abs(value) >= threshold) return `${(value / divisor).toFixed(1).replace(/\.0$/, '')}${suffix}`
  }
  return String(value)
}

/** A quota as the console shows it: dollars with 2 decimals when currency display is on. */
export function renderQuota(quota: number, displayInCurrency: boolean, quotaPerUnit: number): string {
  if (displayInCurrency) return `$${(quota / quotaPerUnit).toFixed(2)}`
  return abbreviateNumber(quota)
}
