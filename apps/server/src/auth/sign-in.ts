import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../app-context.ts'
import type { UserRow } from '../db/repositories/users-repository.ts'
import { SESSION_COOKIE, SESSION_MAX_AGE_SECONDS } from './session-cookie.ts'

/**
 * Starts a session for `user` (password, OAuth or WeChat sign-in): records the sign-in address and
 * time, and sets the session cookie bound to the user's current session version.
 */
export async function signIn(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<void> {
  const now = Math.floor(Date.now() / 1000)
  await context.db
    .updateTable('users')
    .set({ last_login_ip: request.ip, last_login_time: now })
    .where('id', '=', user.id)
    .execute()
  setSessionCookie(context, request, reply, user)
}

/** Issues the session cookie without touching the sign-in record (after a password change). */
export function setSessionCookie(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): void {
  const payload = {
    userId: user.id,
    issuedAt: Math.floor(Date.now() / 1000),
    version: Number(user.session_version ?? 0),
  }
  reply.setCookie(SESSION_COOKIE, context.sessions.seal(payload), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: SESSION_MAX_AGE_SECONDS,
  })
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' })
}
