import type { SortOrder } from './use-table-params.ts'

/** The loaded rows sorted by one field (numbers by value, text by locale), a copy. */
export function sortRows<Row>(rows: Row[], field: string | undefined, order: SortOrder): Row[] {
  if (!field) return rows
  const sign = order === 'desc' ? -1 : 1
  return [...rows].sort((a, b) => {
    const left = (a as Record<string, unknown>)[field]
    const right = (b as Record<string, unknown>)[field]
    if (typeof left === 'number' && typeof right === 'number') return (left - right) * sign
    return String(left ?? '').localeCompare(String(right ?? '')) * sign
  })
}

/** Unix seconds as local date and time; `never` for -1. */
export function formatTime(seconds: number, never: string): string {
  if (seconds === -1) return never
  return new Date(seconds * 1000).toLocaleString()
}
