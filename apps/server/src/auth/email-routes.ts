import { Role, UserStatus } from '@one-api/contracts'
import { z } from 'zod'
import type { AppContext } from '../app-context.ts'
import { findUserByEmail, updateUserFields } from '../db/repositories/users-repository.ts'
import { badRequest, conflict } from '../http/errors.ts'
import { queryText } from '../http/request-params.ts'
import { currentUser, ok, type RouteDefinition } from '../http/route.ts'
import { parseInput } from '../http/validate.ts'
import { assertEmailDomainAllowed, parseEmail } from './email-address.ts'
import { assertMailResendAllowed, consumeMailCode, newMailCode, storeMailCode } from './mail-codes.ts'
import { sendPasswordResetMail, sendVerificationMail } from './mail-messages.ts'
import { hashPassword } from './password.ts'
import { randomString } from './random.ts'
import { checkTurnstile } from './turnstile.ts'

const WRONG_CODE = 'The verification code is wrong or has expired'
const WRONG_RESET_LINK = 'The reset link is invalid or has expired: please ask for a new one'
const EMAIL_TAKEN = 'This email address is already used by another account'
const NEW_PASSWORD_LENGTH = 12

const resetInputSchema = z.object({
  email: z.string({ error: 'email is required' }),
  token: z.string({ error: 'token is required' }).max(64),
})

/** Email codes (verification, binding) and the password reset by mail. */
export function emailRoutes(context: AppContext): RouteDefinition[] {
  const { db, options } = context
  return [
    {
      method: 'GET',
      url: '/api/verification',
      access: Role.Guest,
      rateLimit: 'critical',
      handler: async (request) => {
        await checkTurnstile(context, request)
        const email = parseEmail(queryText(request, 'email'))
        assertEmailDomainAllowed(options, email)
        if (await findUserByEmail(db, email)) throw conflict(EMAIL_TAKEN)
        await assertMailResendAllowed(context, 'email-verification', email)
        const code = newMailCode('email-verification')
        await storeMailCode(context, 'email-verification', email, code)
        await sendVerificationMail(context, email, code)
        return ok(undefined, 'The verification code has been sent')
      },
    },
    {
      method: 'GET',
      url: '/api/oauth/email/bind',
      access: Role.Common,
      changesState: true,
      rateLimit: 'critical',
      handler: async (request) => {
        const user = currentUser(request)
        const email = parseEmail(queryText(request, 'email'))
        assertEmailDomainAllowed(options, email)
        const holder = await findUserByEmail(db, email)
        if (holder && holder.id !== user.id) throw conflict(EMAIL_TAKEN)
        if (!(await consumeMailCode(context, 'email-verification', email, queryText(request, 'code')))) {
          throw badRequest(WRONG_CODE)
        }
        await updateUserFields(db, user.id, { email })
        return ok(undefined, 'The email address is bound')
      },
    },
    {
      method: 'GET',
      url: '/api/reset_password',
      access: Role.Guest,
      rateLimit: 'critical',
      handler: async (request) => {
        await checkTurnstile(context, request)
        const email = parseEmail(queryText(request, 'email'))
        const user = await findUserByEmail(db, email)
        // The same answer whether or not an account has this address, so nobody can probe for one.
        if (!user || user.status !== UserStatus.enabled) {
          return ok(undefined, 'If an account uses this address, a reset link has been sent to it')
        }
        await assertMailResendAllowed(context, 'password-reset', email)
        const token = newMailCode('password-reset')
        await storeMailCode(context, 'password-reset', email, token)
        await sendPasswordResetMail(context, email, token)
        return ok(undefined, 'If an account uses this address, a reset link has been sent to it')
      },
    },
    {
      method: 'POST',
      url: '/api/user/reset',
      access: Role.Guest,
      rateLimit: 'critical',
      handler: async (request) => {
        const input = parseInput(resetInputSchema, request.body)
        const email = parseEmail(input.email)
        if (!(await consumeMailCode(context, 'password-reset', email, input.token))) {
          throw badRequest(WRONG_RESET_LINK)
        }
        const user = await findUserByEmail(db, email)
        if (!user || user.status !== UserStatus.enabled) throw badRequest(WRONG_RESET_LINK)
        // A new random password, shown once to the person holding the link; every session ends.
        const password = randomString(NEW_PASSWORD_LENGTH)
        await updateUserFields(db, user.id, { password: await hashPassword(password) })
        return ok(password, 'The password has been reset')
      },
    },
  ]
}
