import { Role } from '@one-api/contracts'
import type { FastifyBaseLogger } from 'fastify'
import { request } from 'undici'
import type { AppContext } from '../../app-context.ts'
import { sendMail, smtpConfigured } from '../../platform/mailer.ts'

/**
 * Tells the administrators something happened to a channel: through Message Pusher when it is
 * configured (a POST of {title, description, content, token}), else by email to root when SMTP is
 * configured and root has an email address. The server log always gets the message too.
 */
export async function notifyRoot(
  context: AppContext,
  logger: FastifyBaseLogger,
  title: string,
  content: string,
): Promise<void> {
  logger.warn({ title }, content)
  const address = context.options.get('MessagePusherAddress')
  if (!address) return emailRoot(context, logger, title, content)
  try {
    const response = await request(address, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title,
        description: content,
        content,
        token: context.options.get('MessagePusherToken'),
      }),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    })
    await response.body.dump()
    if (response.statusCode >= 300) logger.error(`Message Pusher answered ${response.statusCode}`)
  } catch (error) {
    logger.error({ err: error }, 'sending a Message Pusher notification failed')
  }
}

async function emailRoot(
  context: AppContext,
  logger: FastifyBaseLogger,
  title: string,
  content: string,
): Promise<void> {
  if (!smtpConfigured(context.options)) return
  const root = await context.db
    .selectFrom('users')
    .select('email')
    .where('role', '>=', Role.Root)
    .where('email', '!=', '')
    .orderBy('id')
    .executeTakeFirst()
  if (!root?.email) return
  try {
    await sendMail(context.options, root.email, title, `<p>${escapeHtml(content)}</p>`)
  } catch (error) {
    logger.error({ err: error }, 'sending a notification email failed')
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}
