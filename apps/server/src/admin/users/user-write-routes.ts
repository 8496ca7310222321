import { formatQuota, LogType, Role } from '@one-api/contracts'
import {
  createUserInputSchema,
  manageUserInputSchema,
  updateUserInputSchema,
} from '@one-api/contracts/user-admin'
import type { UpdateObject } from 'kysely'
import type { AppContext } from '../../app-context.ts'
import { hashPassword } from '../../auth/password.ts'
import { systemLog } from '../../db/repositories/logs-repository.ts'
import { withQuotaLessHolds } from '../../db/repositories/quota-held.ts'
import {
  findUserByEmail,
  findUserById,
  findUserByUsername,
  updateUserFields,
} from '../../db/repositories/users-repository.ts'
import type { MainSchema } from '../../db/schema.ts'
import { badRequest, conflict } from '../../http/errors.ts'
import { idOf } from '../../http/request-params.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { createUser } from '../account/create-user.ts'
import { toUserView } from '../account/user-view.ts'
import { balanceLogWriter } from '../balance-logs.ts'
import { manageUser } from './manage-user.ts'
import { announceUserChange, assertOutranks, deleteUser, findLiveUser, groupNames } from './user-access.ts'

/** An administrator creates, edits, deletes, enables, disables, promotes and demotes users. */
export function userWriteRoutes(context: AppContext): RouteDefinition[] {
  const { db, options } = context
  return [
    {
      method: 'POST',
      url: '/api/user/',
      access: Role.Admin,
      handler: async (request) => {
        const input = parseInput(createUserInputSchema, request.body)
        // Always a normal user: promotion is a separate, root-only step.
        const id = await createUser(context, {
          username: input.username,
          password: input.password,
          displayName: input.display_name,
        })
        const created = await findUserById(db, id)
        return ok(created ? toUserView(created) : undefined)
      },
    },
    {
      method: 'PUT',
      url: '/api/user/',
      access: Role.Admin,
      handler: async (request) => {
        const actor = currentUser(request)
        const input = parseInput(updateUserInputSchema, request.body)
        const target = await findLiveUser(context, { id: input.id })
        assertOutranks(actor, target)
        const groups = groupNames(context)
        // A group that an old database holds but GroupRatio lost may stay; it cannot be newly chosen.
        if (input.group !== target.group && !groups.includes(input.group)) {
          throw badRequest(`Group "${input.group}" does not exist; choose one of: ${groups.join(', ')}`)
        }
        const oldQuota = Number(target.quota)
        // Left out, the quota is not written at all (what requests spent since the form loaded stays).
        const newQuota = input.quota ?? oldQuota
        const quotaChanged = newQuota !== oldQuota
        if (newQuota < 0 && quotaChanged) throw badRequest('quota must not be negative')
        if (input.username !== target.username) {
          const holder = await findUserByUsername(db, input.username)
          if (holder && holder.id !== target.id) throw conflict('This username is already taken')
        }
        if (input.email && input.email !== target.email) {
          const holder = await findUserByEmail(db, input.email)
          if (holder && holder.id !== target.id) {
            throw conflict('This email address is already used by another account')
          }
        }
        const changes: UpdateObject<MainSchema, 'users'> = { username: input.username, group: input.group }
        if (input.display_name !== undefined) changes.display_name = input.display_name || input.username
        if (input.email !== undefined) changes.email = input.email
        if (input.password) changes.password = await hashPassword(input.password)
        // Written only when sent and changed, so editing a name never overwrites concurrent
        // spending; a new quota is what is left after the user's requests in flight have settled.
        if (quotaChanged) {
          const display = (quota: number) =>
            formatQuota(quota, options.boolean('DisplayInCurrencyEnabled'), options.number('QuotaPerUnit'))
          // The new quota and its log commit together.
          await withQuotaLessHolds(db, 'users', target.id, newQuota, async (trx, quota) => {
            await updateUserFields(trx, target.id, { ...changes, quota })
            await balanceLogWriter(
              context,
              trx,
            )([
              systemLog({
                user_id: target.id,
                username: input.username,
                type: LogType.manage,
                content: `Administrator changed the user quota from ${display(oldQuota)} to ${display(newQuota)}`,
              }),
            ])
          })
        } else {
          await updateUserFields(db, target.id, changes)
        }
        await announceUserChange(context, target.id)
        const updated = await findUserById(db, target.id)
        return ok(updated ? toUserView(updated) : undefined)
      },
    },
    {
      method: 'DELETE',
      url: '/api/user/:id',
      access: Role.Admin,
      handler: async (request) => {
        const target = await findLiveUser(context, { id: idOf(request) })
        assertOutranks(currentUser(request), target)
        await deleteUser(context, target)
        return ok()
      },
    },
    {
      method: 'POST',
      url: '/api/user/manage',
      access: Role.Admin,
      handler: async (request) => {
        const input = parseInput(manageUserInputSchema, request.body)
        return ok(await manageUser(context, currentUser(request), input))
      },
    },
  ]
}
