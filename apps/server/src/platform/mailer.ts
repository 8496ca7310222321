import nodemailer from 'nodemailer'
import type { OptionsStore } from '../config/options-store.ts'

/**
 * Sends mail through the SMTP server of the options (SMTPServer, SMTPPort, SMTPAccount,
 * SMTPToken, SMTPFrom), as one-api does: port 465 is implicit TLS, other ports plain or STARTTLS
 * when the server offers it.
 */
export function smtpConfigured(options: OptionsStore): boolean {
  return options.get('SMTPServer') !== ''
}

export async function sendMail(
  options: OptionsStore,
  to: string,
  subject: string,
  html: string,
): Promise<void> {
  const port = options.number('SMTPPort')
  const account = options.get('SMTPAccount')
  const transport = nodemailer.createTransport({
    host: options.get('SMTPServer'),
    port,
    secure: port === 465,
    auth: account ? { user: account, pass: options.get('SMTPToken') } : undefined,
    connectionTimeout: 10_000,
    socketTimeout: 10_000,
  })
  try {
    await transport.sendMail({ from: options.get('SMTPFrom') || account, to, subject, html })
  } finally {
    transport.close()
  }
}
