import type { LogStat } from '@one-api/contracts/log'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'
import { type LogFilters, logKeys, logQuery } from './log-keys.ts'

/** GET /api/log/stat or /api/log/self/stat with the list's filters: the quota consumed. */
export function fetchLogStat(admin: boolean, filters: LogFilters): Promise<LogStat> {
  const path = admin ? '/api/log/stat' : '/api/log/self/stat'
  return apiGet<LogStat>(`${path}?${logQuery(admin, filters)}`)
}

export const logStatQueryOptions = (admin: boolean, filters: LogFilters) =>
  queryOptions({ queryKey: logKeys.stat(admin, filters), queryFn: () => fetchLogStat(admin, filters) })

/** Asked only once the person clicks to reveal the total: the sum is the costliest log query. */
export const useLogStat = (admin: boolean, filters: LogFilters, enabled: boolean) =>
  useQuery({ ...logStatQueryOptions(admin, filters), enabled })
