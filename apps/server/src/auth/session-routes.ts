import { Role } from '@one-api/contracts'
import { announceUserChange, assertOutranks, findLiveUser } from '../admin/users/user-access.ts'
import type { AppContext } from '../app-context.ts'
import { endUserSessions } from '../db/repositories/users-repository.ts'
import { badRequest } from '../http/errors.ts'
import { currentUser, ok, type RouteDefinition } from '../http/route.ts'

/**
 * `POST /api/user/:id/sessions/revoke`: an administrator signs a user out everywhere. Every
 * session cookie of that user stops working on every node at its next request; the user's access
 * token is not affected (regenerating it revokes it). Same rank rule as the other user actions.
 */
export function sessionRoutes(context: AppContext): RouteDefinition[] {
  return [
    {
      method: 'POST',
      url: '/api/user/:id/sessions/revoke',
      access: Role.Admin,
      handler: async (request) => {
        const id = Number((request.params as { id: string }).id)
        if (!Number.isSafeInteger(id) || id <= 0) throw badRequest('The user id must be a positive integer')
        const target = await findLiveUser(context, { id })
        assertOutranks(currentUser(request), target)
        await endUserSessions(context.db, target.id)
        await announceUserChange(context, target.id)
        return ok(undefined, 'Every session of this user has ended')
      },
    },
  ]
}
