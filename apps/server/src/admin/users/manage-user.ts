import { Role, UserStatus } from '@one-api/contracts'
import type { ManageUserInput } from '@one-api/contracts/user-admin'
import type { AppContext } from '../../app-context.ts'
import { type UserRow, updateUserFields } from '../../db/repositories/users-repository.ts'
import { badRequest, forbidden } from '../../http/errors.ts'
import { announceUserChange, assertOutranks, deleteUser, findLiveUser } from './user-access.ts'

export interface ManageResult {
  status: number
  role: number
}

/**
 * `POST /api/user/manage`, as in one-api: root can never be disabled, deleted or demoted; an
 * administrator acts only on lower roles; only root promotes to or demotes from administrator.
 */
export async function manageUser(
  context: AppContext,
  actor: UserRow,
  input: ManageUserInput,
): Promise<ManageResult> {
  const target = await findLiveUser(context, { username: input.username })
  assertOutranks(actor, target)
  const result: ManageResult = { status: target.status, role: target.role }
  switch (input.action) {
    case 'delete':
      await deleteUser(context, target)
      return { ...result, status: UserStatus.deleted }
    case 'disable':
      if (target.role >= Role.Root) throw forbidden('The super administrator account cannot be disabled')
      result.status = UserStatus.disabled
      break
    case 'enable':
      result.status = UserStatus.enabled
      break
    case 'promote':
      if (actor.role < Role.Root) throw forbidden('Only the super administrator can promote users')
      if (target.role >= Role.Admin) throw badRequest('This user is already an administrator')
      result.role = Role.Admin
      break
    case 'demote':
      if (actor.role < Role.Root) throw forbidden('Only the super administrator can demote users')
      if (target.role >= Role.Root) throw forbidden('The super administrator cannot be demoted')
      if (target.role < Role.Admin) throw badRequest('This user is already a normal user')
      result.role = Role.Common
      break
  }
  await updateUserFields(context.db, target.id, { status: result.status, role: result.role })
  await announceUserChange(context, target.id)
  return result
}
