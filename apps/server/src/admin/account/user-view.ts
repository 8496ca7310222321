import type { SessionUser } from '@one-api/contracts'
import type { UserRow } from '../../db/repositories/users-repository.ts'

export function toSessionUser(user: UserRow): SessionUser {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name ?? '',
    role: user.role,
    status: user.status,
    group: user.group || 'default',
  }
}

/** A user as its owner or an administrator sees it: never the password hash or access token. */
export function toUserView(user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name ?? '',
    role: user.role,
    status: user.status,
    email: user.email ?? '',
    github_id: user.github_id ?? '',
    wechat_id: user.wechat_id ?? '',
    lark_id: user.lark_id ?? '',
    oidc_id: user.oidc_id ?? '',
    quota: Number(user.quota),
    used_quota: Number(user.used_quota),
    request_count: Number(user.request_count),
    group: user.group || 'default',
    aff_code: user.aff_code ?? '',
    inviter_id: Number(user.inviter_id ?? 0),
    last_login_ip: user.last_login_ip ?? '',
    last_login_time: Number(user.last_login_time ?? 0),
    created_time: Number(user.created_time ?? 0),
  }
}
