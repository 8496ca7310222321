import type { LogView } from '@one-api/contracts/log'
import { ITEMS_PER_PAGE } from '@one-api/contracts/quota'
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { type LogFilters, logKeys, logQuery } from './log-keys.ts'

export const LOG_PAGE_SIZE = ITEMS_PER_PAGE

/** GET /api/log/ (administrators: every user) or /api/log/self/ (one's own), one page. */
export function fetchLogs(admin: boolean, filters: LogFilters, page: number): Promise<LogView[]> {
  const path = admin ? '/api/log/' : '/api/log/self/'
  return apiGet<LogView[]>(`${path}?${logQuery(admin, filters, page)}`).then((rows) => rows ?? [])
}

export const logsQueryOptions = (admin: boolean, filters: LogFilters, page: number) =>
  queryOptions({
    queryKey: logKeys.list(admin, filters, page),
    queryFn: () => fetchLogs(admin, filters, page),
    placeholderData: keepPreviousData,
  })

export const useLogs = (admin: boolean, filters: LogFilters, page: number) =>
  useQuery(logsQueryOptions(admin, filters, page))
