import { Role, UserStatus } from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { randomHex32 } from '../../auth/random.ts'
import {
  findUserById,
  findUserByUsername,
  softDeleteUser,
  type UserRow,
} from '../../db/repositories/users-repository.ts'
import { forbidden, notFound } from '../../http/errors.ts'
import { BusTopic } from '../../platform/bus-topics.ts'

export async function announceUserChange(context: AppContext, userId: number): Promise<void> {
  await context.bus.publish(BusTopic.userChanged, String(userId), `user #${userId}`)
}

const USER_NOT_FOUND = 'User not found'

/** A user that exists and is not deleted, by id or username; else 404. */
export async function findLiveUser(context: AppContext, by: { id: number } | { username: string }) {
  const user =
    'id' in by ? await findUserById(context.db, by.id) : await findUserByUsername(context.db, by.username)
  if (!user || user.status === UserStatus.deleted) throw notFound(USER_NOT_FOUND)
  return user
}

/**
 * one-api's rule: an administrator acts only on users with a strictly lower role; root acts on
 * everyone (what root may do to root itself is checked per action).
 */
export function assertOutranks(actor: UserRow, target: UserRow): void {
  if (actor.role >= Role.Root) return
  if (target.role >= actor.role) {
    throw forbidden('Permission denied: you can only manage users whose role is lower than yours')
  }
}

/** Soft-deletes a user (never root), freeing the username as DELETE /api/user/self does. */
export async function deleteUser(context: AppContext, target: UserRow): Promise<void> {
  if (target.role >= Role.Root) throw forbidden('The super administrator account cannot be deleted')
  await softDeleteUser(context.db, target.id, `deleted_${randomHex32().slice(0, 16)}`)
  await announceUserChange(context, target.id)
}

/** The group names an administrator may assign: the keys of the GroupRatio option. */
export function groupNames(context: AppContext): string[] {
  const parsed = Object.keys(context.options.ratios('GroupRatio'))
  if (parsed.length > 0) return parsed
  // OptionsStore.ratios() only knows values loaded from the table, not the built-in default.
  try {
    return Object.keys(JSON.parse(context.options.get('GroupRatio')) as Record<string, number>)
  } catch {
    return []
  }
}
