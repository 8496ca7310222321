import type { UserListOrder } from '@one-api/contracts/user-admin'

/** A user as the administrator's calls return it (never a password or access token). */
export interface UserView {
  id: number
  username: string
  display_name: string
  role: number
  status: number
  email: string
  github_id: string
  wechat_id: string
  quota: number
  used_quota: number
  request_count: number
  group: string
  last_login_ip: string
}

export interface UserListParams {
  /** 0-based page; ignored while searching. */
  page: number
  /** The server's order (largest first), '' for newest first. */
  order: UserListOrder | ''
  /** ID, or the start of a username, display name or email. */
  keyword: string
  /** The exact last sign-in address. */
  ip: string
  /** Only users sharing their last sign-in address with another user (duplicate registrations). */
  sameIp: boolean
}

/** Query keys of the user screens; every change invalidates `userKeys.all`. */
export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
  detail: (id: number) => ['users', 'detail', id] as const,
  groups: ['users', 'groups'] as const,
}
