import {
  loginInputSchema,
  type RegisterInput,
  Role,
  registerInputSchema,
  UserStatus,
} from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { sessionUser } from '../../auth/authenticate.ts'
import { comesFromAnotherSite } from '../../auth/cross-site.ts'
import { assertEmailDomainAllowed, parseEmail } from '../../auth/email-address.ts'
import { consumeMailCode } from '../../auth/mail-codes.ts'
import { verifyPassword } from '../../auth/password.ts'
import { SESSION_COOKIE } from '../../auth/session-cookie.ts'
import { clearSessionCookie, signIn } from '../../auth/sign-in.ts'
import { checkTurnstile } from '../../auth/turnstile.ts'
import {
  endUserSessions,
  findUserByEmail,
  findUserById,
  findUserByUsername,
} from '../../db/repositories/users-repository.ts'
import { AppError, badRequest, conflict, forbidden } from '../../http/errors.ts'
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
        await signIn(context, request, reply, user)
        return ok(toSessionUser(user))
      },
    },
    {
      method: 'GET',
      url: '/api/user/logout',
      access: Role.Guest,
      handler: async (request, reply) => {
        // Signing out ends every session of the user, on every device, not only this cookie; a
        // cookie that is already over changes nothing, and a sign-out another site makes the
        // browser send only clears this browser's cookie.
        const user = await sessionUser(context, request)
        if (user && !comesFromAnotherSite(request)) await endUserSessions(db, user.id)
        clearSessionCookie(reply)
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
        let email: string | undefined
        if (options.boolean('EmailVerificationEnabled')) {
          email = await consumeRegistrationCode(context, input)
        }
        const id = await createUser(context, {
          username: input.username,
          password: input.password,
          email,
          inviterAffCode: input.aff_code || undefined,
        })
        const user = await findUserById(db, id)
        return ok(user ? toSessionUser(user) : undefined)
      },
    },
  ]
}

/**
 * With EmailVerificationEnabled, registration needs the address and the code mailed to it by
 * /api/verification. The code is used up only once everything else is known to be acceptable.
 */
async function consumeRegistrationCode(context: AppContext, input: RegisterInput): Promise<string> {
  if (!input.email || !input.verification_code) {
    throw badRequest('Email verification is enabled: enter your email address and the code mailed to it')
  }
  const email = parseEmail(input.email)
  assertEmailDomainAllowed(context.options, email)
  if (await findUserByUsername(context.db, input.username)) throw conflict('This username is already taken')
  if (await findUserByEmail(context.db, email)) {
    throw conflict('This email address is already used by another account')
  }
  if (!(await consumeMailCode(context, 'email-verification', email, input.verification_code))) {
    throw badRequest('The verification code is wrong or has expired')
  }
  return email
}
