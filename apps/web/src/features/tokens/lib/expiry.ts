import { NEVER_EXPIRES } from '@one-api/contracts/token'

/** Quick expiry choices: never, or now plus this many seconds (one month counts 30 days). */
export const QUICK_EXPIRIES = [
  { label: 'never', seconds: undefined },
  { label: 'month', seconds: 30 * 24 * 3600 },
  { label: 'day', seconds: 24 * 3600 },
  { label: 'hour', seconds: 3600 },
  { label: 'minute', seconds: 60 },
] as const

const pad = (value: number) => String(value).padStart(2, '0')

/** Unix seconds as the value of a `datetime-local` input (local time, to the second); '' for never. */
export function toInputValue(expiredTime: number): string {
  if (expiredTime === NEVER_EXPIRES) return ''
  const date = new Date(expiredTime * 1000)
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

/** The input's value as unix seconds: '' means never (-1); undefined when it is not a date. */
export function fromInputValue(value: string): number | undefined {
  const text = value.trim()
  if (text === '' || text === String(NEVER_EXPIRES)) return NEVER_EXPIRES
  const time = new Date(text).getTime()
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000)
}

/** The input's value for a quick choice, counted from `now` (milliseconds). */
export function quickExpiryValue(seconds: number | undefined, now = Date.now()): string {
  return seconds === undefined ? '' : toInputValue(Math.floor(now / 1000) + seconds)
}
