import type { FastifyBaseLogger } from 'fastify'
import { request } from 'undici'
import type { AppContext } from '../../app-context.ts'

/**
 * Tells the administrators something happened to a channel: through Message Pusher when it is
 * configured (a POST of {title, description, content, token}), otherwise only in the server log,
 * which always gets the message too. Email notification needs SMTP, which this release lacks.
 */
export async function notifyRoot(
  context: AppContext,
  logger: FastifyBaseLogger,
  title: string,
  content: string,
): Promise<void> {
  logger.warn({ title }, content)
  const address = context.options.get('MessagePusherAddress')
  if (!address) return
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
