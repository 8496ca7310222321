/** User roles, as one-api stores them in `users.role` (its RoleGuestUser ... RoleRootUser). */
export const Role = {
  /** Not signed in; as a route's level: anyone. */
  Guest: 0,
  Common: 1,
  Admin: 10,
  Root: 100,
} as const
export type RoleValue = (typeof Role)[keyof typeof Role]

export function roleName(role: number): 'user' | 'admin' | 'root' | 'unknown' {
  if (role === Role.Common) return 'user'
  if (role === Role.Admin) return 'admin'
  if (role === Role.Root) return 'root'
  return 'unknown'
}
