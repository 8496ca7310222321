/** Short numbers: 12.3k from 1e4, 1.2M from 1e6, 1.2B from 1e9. */
export function abbreviateNumber(value: number): string {
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e4, 'k'],
  ]
  for (const [size, suffix] of units) {
    if (Math.abs(value) >= size) return `${(value / size).toFixed(1).replace(/\.0$/, '')}${suffix}`
  }
  return String(value)
}

/** A quota as the console shows it: dollars with 2 decimals when currency display is on. */
export function renderQuota(quota: number, displayInCurrency: boolean, quotaPerUnit: number): string {
  if (displayInCurrency) return `$${(quota / quotaPerUnit).toFixed(2)}`
  return abbreviateNumber(quota)
}
