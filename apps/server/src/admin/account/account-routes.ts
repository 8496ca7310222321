import { loginInputSchema, Role, registerInputSchema, UserStatus } from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { verifyPassword } from '../../auth/password.ts'
import { SESSION_COOKIE, SESSION_MAX_AGE_SECONDS } from '../../auth/session-cookie.ts'
import { checkTurnstile } from '../../auth/turnstile.ts'
import { findUserByEmail, findUserById, findUserByUsername } from '../../db/repositories/users-repository.ts'
import { AppError, badRequest, forbidden } from '../../http/errors.ts'
import { ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { createUser } from './create-user.ts'
import { toSessionUser } from './user-view.ts'

const BAD_CREDENTIALS = 'Wrong username or password, or the account has been disabled'

/** Sign-in, sign-out and registration. */
export function accountRoutes(context: AppContext): RouteDefinition[] {
  const { db, options, sessions } = context
  return [
    {
      method: 'POST',
      url: '/api/user/login',
      access: Role.Guest,
      rateLimit: 'critical',
      handler: async (request, reply) => {
        if (!options.boolean('PasswordLoginEnabled')) {
          throw forbidden('Password login has been disabled by the administrator')
        }
        const input = parseInput(loginInputSchema, request.body)
        const user =
          (await findUserByUsername(db, input.username)) ?? (await findUserByEmail(db, input.username))
        if (
          !user ||
          user.status !== UserStatus.enabled ||
          !(await verifyPassword(input.password, user.password))
        ) {
          throw new AppError('invalid_credentials', BAD_CREDENTIALS)
        }
        const now = Math.floor(Date.now() / 1000)
        await db
          .updateTable('users')
          .set({ last_login_ip: request.ip, last_login_time: now })
          .where('id', '=', user.id)
          .execute()
        reply.setCookie(SESSION_COOKIE, sessions.seal({ userId: user.id, issuedAt: now }), {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: request.protocol === 'https',
          maxAge: SESSION_MAX_AGE_SECONDS,
        })
        return ok(toSessionUser(user))
      },
    },
    {
      method: 'GET',
      url: '/api/user/logout',
      access: Role.Guest,
      handler: async (_request, reply) => {
        reply.clearCookie(SESSION_COOKIE, { path: '/' })
        return ok()
      },
    },
    {
      method: 'POST',
      url: '/api/user/register',
      access: Role.Guest,
      rateLimit: 'critical',
      handler: async (request) => {
        if (!options.boolean('RegisterEnabled')) {
          throw forbidden('New user registration has been disabled by the administrator')
        }
        if (!options.boolean('PasswordRegisterEnabled')) {
          throw forbidden('Registration with a password has been disabled; use a third-party sign-in instead')
        }
        const input = parseInput(registerInputSchema, request.body)
        await checkTurnstile(context, request)
        if (options.boolean('EmailVerificationEnabled')) {
          // Email codes are sent by the verification flow, which is not part of this release yet.
          throw badRequest(
            'Email verification is enabled, but sending verification codes is not supported yet',
          )
        }
        const id = await createUser(context, {
          username: input.username,
          password: input.password,
          inviterAffCode: input.aff_code || undefined,
        })
        const user = await findUserById(db, id)
        return ok(user ? toSessionUser(user) : undefined)
      },
    },
  ]
}
