import type { UserDashboardRow } from '@one-api/contracts/dashboard'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** The signed-in user's usage of today and the seven days before, by day and model (one-api's shape). */
export function getUserDashboard(): Promise<UserDashboardRow[]> {
  return apiGet<UserDashboardRow[]>('/api/user/dashboard').then((rows) => rows ?? [])
}

export const userDashboardQueryOptions = () =>
  queryOptions({ queryKey: ['dashboard', 'self'], queryFn: getUserDashboard })

export function useUserDashboard() {
  return useQuery(userDashboardQueryOptions())
}
