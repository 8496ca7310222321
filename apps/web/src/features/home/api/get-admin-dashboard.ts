import type { AdminDashboard } from '@one-api/contracts/dashboard'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

const SECONDS_PER_DAY = 86_400

/** Usage across all users over the last `days` whole UTC days, today included (administrators). */
export function getAdminDashboard(days: number): Promise<AdminDashboard> {
  const now = Math.floor(Date.now() / 1000)
  const query = new URLSearchParams({
    start_timestamp: String(now - (days - 1) * SECONDS_PER_DAY),
    end_timestamp: String(now),
  })
  return apiGet<AdminDashboard>(`/api/log/dashboard?${query}`)
}

export const adminDashboardQueryOptions = (days: number) =>
  queryOptions({ queryKey: ['dashboard', 'admin', days], queryFn: () => getAdminDashboard(days) })

export function useAdminDashboard(days: number, enabled: boolean) {
  return useQuery({ ...adminDashboardQueryOptions(days), enabled })
}
