import type { FastifyRequest } from 'fastify'
import { request } from 'undici'
import type { AppContext } from '../app-context.ts'
import { AppError, forbidden } from '../http/errors.ts'

const DEFAULT_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

/**
 * Cloudflare Turnstile check of the bot-challenge token (`?turnstile=`) on registration and
 * verification routes, when TurnstileCheckEnabled. TURNSTILE_VERIFY_URL may point elsewhere
 * (tests, air-gapped mirrors).
 * https://developers.cloudflare.com/turnstile/get-started/server-side-validation/
 */
export async function checkTurnstile(context: AppContext, incoming: FastifyRequest): Promise<void> {
  if (!context.options.boolean('TurnstileCheckEnabled')) return
  const token = (incoming.query as { turnstile?: string }).turnstile
  if (!token) throw forbidden('The bot check is missing: please retry in a few seconds')
  let success = false
  try {
    const response = await request(context.config.TURNSTILE_VERIFY_URL ?? DEFAULT_VERIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        secret: context.options.get('TurnstileSecretKey'),
        response: token,
        remoteip: incoming.ip,
      }).toString(),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    })
    success = ((await response.body.json()) as { success?: boolean }).success === true
  } catch {
    throw new AppError('service_unavailable', 'The bot check could not be verified: please try again')
  }
  if (!success) throw forbidden('The bot check failed: please try again')
}
