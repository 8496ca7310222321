import type { AppContext } from '../app-context.ts'
import { AppError } from '../http/errors.ts'
import { sendMail, smtpConfigured } from '../platform/mailer.ts'
import { MAIL_CODE_TTL_SECONDS } from './mail-codes.ts'

const VALID_MINUTES = MAIL_CODE_TTL_SECONDS / 60

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** The console's address, used in links sent by mail. */
export function serverAddress(context: AppContext): string {
  return (context.options.get('ServerAddress') || `http://localhost:${context.config.PORT}`).replace(
    /\/+$/,
    '',
  )
}

async function deliver(context: AppContext, to: string, subject: string, html: string): Promise<void> {
  if (!smtpConfigured(context.options)) {
    throw new AppError(
      'service_unavailable',
      'Sending mail is not configured: ask the administrator to set up SMTP',
    )
  }
  try {
    await sendMail(context.options, to, subject, html)
  } catch {
    throw new AppError('service_unavailable', 'The mail could not be sent: please try again later')
  }
}

export function sendVerificationMail(context: AppContext, to: string, code: string): Promise<void> {
  const system = escapeHtml(context.options.get('SystemName'))
  return deliver(
    context,
    to,
    `${context.options.get('SystemName')} email verification`,
    `<p>Hello,</p><p>You are verifying this address for ${system}.</p>` +
      `<p>Your verification code is: <strong>${code}</strong></p>` +
      `<p>It is valid for ${VALID_MINUTES} minutes. If you did not ask for it, ignore this mail.</p>`,
  )
}

export function sendPasswordResetMail(context: AppContext, to: string, token: string): Promise<void> {
  const system = escapeHtml(context.options.get('SystemName'))
  const link = `${serverAddress(context)}/user/reset?email=${encodeURIComponent(to)}&token=${token}`
  return deliver(
    context,
    to,
    `${context.options.get('SystemName')} password reset`,
    `<p>Hello,</p><p>Someone asked to reset the password of your ${system} account.</p>` +
      `<p><a href="${escapeHtml(link)}">Click here to reset your password</a></p>` +
      `<p>If the link does not open, copy this address into your browser:<br>${escapeHtml(link)}</p>` +
      `<p>The link is valid for ${VALID_MINUTES} minutes and works once. If you did not ask for it, ignore this mail.</p>`,
  )
}
