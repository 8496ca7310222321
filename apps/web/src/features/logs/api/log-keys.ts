/** The filters of the log page as the API takes them (timestamps in unix seconds). */
export interface LogFilters {
  type: string
  token_name: string
  model_name: string
  start_timestamp: string
  end_timestamp: string
  username: string
  channel: string
}

export const logKeys = {
  all: ['logs'] as const,
  list: (admin: boolean, filters: LogFilters, page: number) =>
    ['logs', 'list', admin, filters, page] as const,
  stat: (admin: boolean, filters: LogFilters) => ['logs', 'stat', admin, filters] as const,
}

/** The query string of a log call; an administrator's own filters are dropped from the self view. */
export function logQuery(admin: boolean, filters: LogFilters, page?: number): string {
  const query = new URLSearchParams()
  if (page !== undefined) query.set('p', String(page))
  for (const [name, value] of Object.entries(filters)) {
    if (!admin && (name === 'username' || name === 'channel')) continue
    if (value !== '') query.set(name, value)
  }
  return query.toString()
}
