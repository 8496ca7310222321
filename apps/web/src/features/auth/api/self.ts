import { queryOptions } from '@tanstack/react-query'
import { apiGet } from '@/lib/api-client.ts'

/** The identities of the signed-in user, from GET /api/user/self. */
export interface BoundAccounts {
  email: string
  github_id: string
  wechat_id: string
  lark_id: string
  oidc_id: string
}

/** Under ['user', 'self'], so refreshing the profile after a binding refreshes both. */
export const boundAccountsQuery = () =>
  queryOptions({
    queryKey: ['user', 'self', 'accounts'] as const,
    queryFn: () => apiGet<BoundAccounts>('/api/user/self'),
  })

export const selfQueryPrefix = ['user', 'self'] as const
