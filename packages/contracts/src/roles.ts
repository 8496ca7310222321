/** User roles, as one-api stores them in `users.role`. */
export const Role = {
  guest: 0,
  user: 1,
  admin: 10,
  root: 100,
} as const
export type RoleValue = (typeof Role)[keyof typeof Role]

export function roleName(role: number): 'user' | 'admin' | 'root' | 'unknown' {
  if (role === Role.user) return 'user'
  if (role === Role.admin) return 'admin'
  if (role === Role.root) return 'root'
  return 'unknown'
}
