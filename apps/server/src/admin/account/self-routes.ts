import { Role, updateSelfInputSchema } from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { hashPassword } from '../../auth/password.ts'
import { randomHex32 } from '../../auth/random.ts'
import { clearSessionCookie, setSessionCookie } from '../../auth/sign-in.ts'
import {
  findUserById,
  findUserByUsername,
  softDeleteUser,
  updateUserFields,
} from '../../db/repositories/users-repository.ts'
import { badRequest, conflict, forbidden } from '../../http/errors.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { BusTopic } from '../../platform/bus-topics.ts'
import { uniqueAffCode } from './create-user.ts'
import { toUserView } from './user-view.ts'

/** What any signed-in user may do to their own account. */
export function selfRoutes(context: AppContext): RouteDefinition[] {
  const { db } = context
  return [
    {
      method: 'GET',
      url: '/api/user/self',
      access: Role.Common,
      handler: async (request) => ok(toUserView(currentUser(request))),
    },
    {
      method: 'PUT',
      url: '/api/user/self',
      access: Role.Common,
      handler: async (request, reply) => {
        const user = currentUser(request)
        const input = parseInput(updateSelfInputSchema, request.body)
        const changes: { username?: string; display_name?: string; password?: string } = {}
        if (input.username !== undefined && input.username !== user.username) {
          const holder = await findUserByUsername(db, input.username)
          if (holder && holder.id !== user.id) throw conflict('This username is already taken')
          changes.username = input.username
        }
        if (input.display_name !== undefined) changes.display_name = input.display_name
        if (input.password) changes.password = await hashPassword(input.password)
        if (Object.keys(changes).length === 0) throw badRequest('Nothing to update')
        // A new password ends every other session; this one continues with a fresh cookie.
        await updateUserFields(db, user.id, changes)
        const updated = await findUserById(db, user.id)
        if (updated && changes.password) setSessionCookie(context, request, reply, updated)
        return ok(updated ? toUserView(updated) : undefined)
      },
    },
    {
      method: 'DELETE',
      url: '/api/user/self',
      access: Role.Common,
      handler: async (request, reply) => {
        const user = currentUser(request)
        if (user.role >= Role.Root) throw forbidden('The super administrator account cannot be deleted')
        // Soft delete as one-api: the row stays for logs and quota history; the name is freed.
        await softDeleteUser(db, user.id, `deleted_${randomHex32().slice(0, 16)}`)
        await context.bus.publish(BusTopic.userChanged, String(user.id), `user #${user.id}`)
        clearSessionCookie(reply)
        return ok()
      },
    },
    {
      method: 'GET',
      url: '/api/user/token',
      access: Role.Common,
      changesState: true,
      handler: async (request) => {
        const user = currentUser(request)
        const accessToken = randomHex32()
        await updateUserFields(db, user.id, { access_token: accessToken })
        return ok(accessToken)
      },
    },
    {
      method: 'GET',
      url: '/api/user/aff',
      access: Role.Common,
      changesState: true,
      handler: async (request) => {
        const user = currentUser(request)
        if (user.aff_code) return ok(user.aff_code)
        const affCode = await uniqueAffCode(context)
        await updateUserFields(db, user.id, { aff_code: affCode })
        return ok(affCode)
      },
    },
  ]
}
