import { Role, UserStatus } from '@one-api/contracts'
import { z } from 'zod'
import type { AppContext } from '../app-context.ts'
import { findUserByEmail, updateUserFields } from '../db/repositories/users-repository.ts'
import { badRequest, conflict } from '../http/errors.ts'
import { queryText } from '../http/request-params.ts'
import { currentUser, ok, type RouteDefinition } from '../http/route.ts'
import { parseInput } from '../http/validate.ts'
import { assertEmailDomainAllowed, parseEmail } from './email-address.ts'
import {
  assertMailResendAllowed,
  consumeMailCode,
  type MailCodePurpose,
  newMailCode,
  storeMailCode,
} from './mail-codes.ts'
import { sendPasswordResetMail, sendVerificationMail } from './mail-messages.ts'
import { hashPassword } from './password.ts'
import { randomString } from './random.ts'
import { checkTurnstile } from './turnstile.ts'

const WRONG_CODE = 'The verification code is wrong or has expired'
const WRONG_RESET_LINK = 'The reset link is invalid or has expired: please ask for a new one'
const EMAIL_TAKEN = 'This email address is already used by another account'
const NEW_PASSWORD_LENGTH = 12
// The same answer whether or not an account has the address, so nobody can probe for one.
const RESET_MAIL_SENT = 'If an account uses this address, a reset link has been sent to it'

const resetInputSchema = z.object({
  email: z.string({ error: 'email is required' }),
  token: z.string({ error: 'token is required' }).max(64),
})

/**
 * A new code (or reset token) of `purpose` for `email`: refused while the last one is too recent,
 * else stored and sent with `send`.
 */
async function mailNewCode(
  context: AppContext,
  purpose: MailCodePurpose,
  email: string,
  send: (context: AppContext, email: string, code: string) => Promise<unknown>,
): Promise<void> {
  await assertMailResendAllowed(context, purpose, email)
  const code = newMailCode(purpose)
  await storeMailCode(context, purpose, email, code)
  await send(context, email, code)
}

/** Uses up the code sent to `email`; a wrong or expired one is refused with `error`. */
async function takeMailCode(
  context: AppContext,
  purpose: MailCodePurpose,
  email: string,
  code: string,
  error: string,
): Promise<void> {
  if (!(await consumeMailCode(context, purpose, email, code))) throw badRequest(error)
}

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
        await mailNewCode(context, 'email-verification', email, sendVerificationMail)
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
        await takeMailCode(context, 'email-verification', email, queryText(request, 'code'), WRONG_CODE)
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
        if (user?.status === UserStatus.enabled) {
          await mailNewCode(context, 'password-reset', email, sendPasswordResetMail)
        }
        return ok(undefined, RESET_MAIL_SENT)
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
        await takeMailCode(context, 'password-reset', email, input.token, WRONG_RESET_LINK)
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
