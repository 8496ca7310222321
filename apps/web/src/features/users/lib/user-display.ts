import { Role, roleName } from '@one-api/contracts/roles'

/** Usernames longer than this are cut in the list (the full name shows on hover). */
export const USERNAME_DISPLAY_LENGTH = 15

export function truncateUsername(username: string): string {
  if (username.length <= USERNAME_DISPLAY_LENGTH) return username
  return `${username.slice(0, USERNAME_DISPLAY_LENGTH)}…`
}

/** The groups of a comma list; an empty list is the default group. */
export function groupsOf(group: string): string[] {
  const groups = group
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  return groups.length > 0 ? groups : ['default']
}

/** vip and pro are yellow, svip and premium red, any other group plain. */
export function groupColor(group: string): string {
  if (group === 'vip' || group === 'pro') return 'yellow'
  if (group === 'svip' || group === 'premium') return 'red'
  return 'gray'
}

const ROLE_COLORS: Record<ReturnType<typeof roleName>, string> = {
  user: 'blue',
  admin: 'yellow',
  root: 'orange',
  unknown: 'red',
}

/** A normal user blue, an administrator yellow, the super administrator orange, unknown red. */
export function roleColor(role: number): string {
  return ROLE_COLORS[roleName(role)]
}

/** What the signed-in administrator may do to one user, as the server allows it. */
export interface UserPermissions {
  /** Edit, enable, disable: the target's role is lower than the actor's (root acts on everyone). */
  manage: boolean
  /** Disable and delete: also never the super administrator. */
  remove: boolean
  /** Only the super administrator changes roles, and never its own. */
  promote: boolean
  demote: boolean
}

export function permissionsOver(actorRole: number, targetRole: number): UserPermissions {
  const root = actorRole >= Role.Root
  const manage = root || targetRole < actorRole
  return {
    manage,
    remove: manage && targetRole < Role.Root,
    promote: root && targetRole < Role.Admin,
    demote: root && targetRole >= Role.Admin && targetRole < Role.Root,
  }
}
