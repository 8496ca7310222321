import { randomBytes } from 'node:crypto'
import type { AppContext } from '../app-context.ts'
import { AppError } from '../http/errors.ts'

/** How long an email code or a password-reset link stays valid, as in one-api. */
export const MAIL_CODE_TTL_SECONDS = 10 * 60
/** One mail per address and purpose in this time; the console counts the same 30 s down. */
export const MAIL_RESEND_SECONDS = 30

export type MailCodePurpose = 'email-verification' | 'password-reset'

/** A 6-character code to type (email verification) or a 32-character one for a link (reset). */
export function newMailCode(purpose: MailCodePurpose): string {
  return purpose === 'email-verification' ? randomBytes(3).toString('hex') : randomBytes(16).toString('hex')
}

/** Refuses a second mail to the same address for the same purpose within the resend time. */
export async function assertMailResendAllowed(
  context: AppContext,
  purpose: MailCodePurpose,
  email: string,
): Promise<void> {
  const allowed = await context.rateLimiter.allow(`mail:${purpose}:${email}`, 1, MAIL_RESEND_SECONDS)
  if (!allowed) {
    throw new AppError(
      'too_many_requests',
      `A mail was sent to this address less than ${MAIL_RESEND_SECONDS} seconds ago: please wait before asking again`,
    )
  }
}

export function storeMailCode(context: AppContext, purpose: MailCodePurpose, email: string, code: string) {
  return context.oneTimeCodes.put(`${purpose}:${email}`, code, MAIL_CODE_TTL_SECONDS)
}

/** True once for the code last mailed to `email` for `purpose`, within its validity. */
export function consumeMailCode(context: AppContext, purpose: MailCodePurpose, email: string, code: string) {
  if (!code) return Promise.resolve(false)
  return context.oneTimeCodes.consume(`${purpose}:${email}`, code)
}
