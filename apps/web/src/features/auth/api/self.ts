import { selfQueryOptions } from '@/lib/self-query.ts'

/** The identities of the signed-in user, from GET /api/user/self. */
export interface BoundAccounts {
  email: string
  github_id: string
  wechat_id: string
  lark_id: string
  oidc_id: string
}

/** The user's record (one query for every part of it shown), read for its identities. */
export const boundAccountsQuery = () => selfQueryOptions<BoundAccounts>()
