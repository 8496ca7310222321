import type { TranslationKey } from '@/i18n/i18n.ts'

/** Log types: 1 top-up, 2 consumption, 3 management, 4 system, 5 test; 0 means all. */
export const LOG_TYPES: { value: string; label: TranslationKey; color: string }[] = [
  { value: '0', label: 'logs.types.all', color: 'gray' },
  { value: '1', label: 'logs.types.topUp', color: 'cyan' },
  { value: '2', label: 'logs.types.consume', color: 'green' },
  { value: '3', label: 'logs.types.manage', color: 'orange' },
  { value: '4', label: 'logs.types.system', color: 'violet' },
  { value: '5', label: 'logs.types.test', color: 'blue' },
]

export function logTypeDisplay(type: number): { label: TranslationKey; color: string } {
  const found = LOG_TYPES.find((entry) => entry.value === String(type) && type !== 0)
  return found ?? { label: 'logs.types.unknown', color: 'gray' }
}

/** `datetime-local` text (local time) <-> unix seconds. */
export function toTimestamp(local: string): string {
  if (!local) return ''
  const milliseconds = new Date(local).getTime()
  return Number.isNaN(milliseconds) ? '' : String(Math.floor(milliseconds / 1000))
}

export function toLocalInput(seconds: number): string {
  const date = new Date(seconds * 1000)
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** The default period: from the epoch (no lower bound) to an hour from now. */
export function defaultEndTimestamp(now = Date.now()): number {
  return Math.floor(now / 1000) + 3600
}
