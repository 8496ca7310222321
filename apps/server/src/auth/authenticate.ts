import { Role, UserStatus } from '@one-api/contracts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../app-context.ts'
import { findUserByAccessToken, findUserById, normalizeUser } from '../db/repositories/users-repository.ts'
import { AppError, forbidden } from '../http/errors.ts'
import type { AccessLevel } from '../http/route.ts'
import { CROSS_SITE_MESSAGE, changesState, comesFromAnotherSite } from './cross-site.ts'
import { SESSION_COOKIE } from './session-cookie.ts'

/**
 * Resolves the caller from the session cookie, else from `Authorization: <access token>`, and
 * checks the route's level. The user row is read on every request, so disabling, deleting or
 * demoting a user takes effect on the very next request on every node.
 */
export async function authenticate(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  access: AccessLevel,
) {
  const session = context.sessions.open(request.cookies[SESSION_COOKIE])
  let user = session ? await findUserById(context.db, session.userId) : undefined
  // The browser sends the cookie along with requests other sites make it send.
  if (user && changesState(request) && comesFromAnotherSite(request)) throw forbidden(CROSS_SITE_MESSAGE)
  if (!user) {
    const header = request.headers.authorization
    const accessToken = header?.replace(/^Bearer\s+/i, '').trim()
    // Access tokens are 32 characters; relay keys (sk-…) are not accepted here.
    if (accessToken && accessToken.length <= 64 && !accessToken.startsWith('sk-')) {
      user = await findUserByAccessToken(context.db, accessToken)
    }
  }
  if (!user) {
    if (session) reply.clearCookie(SESSION_COOKIE, { path: '/' })
    throw new AppError('unauthorized', 'Not signed in, or the session has expired: please sign in')
  }
  if (user.status !== UserStatus.enabled) {
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
    throw new AppError('unauthorized', 'This account has been disabled')
  }
  if (user.role < access) {
    throw new AppError(
      'forbidden',
      access >= Role.Root
        ? 'Only the super administrator may do this'
        : 'Permission denied: administrators only',
    )
  }
  request.user = normalizeUser(user)
}
