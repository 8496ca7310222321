import { createHash } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { request } from 'undici'
import type { AppContext } from '../app-context.ts'
import { AppError, forbidden } from '../http/errors.ts'

const DEFAULT_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

/** Cloudflare's tokens live 300 s; one passed check covers the same token for as long. */
const PASSED_CHECK_TTL_SECONDS = 300

/**
 * Cloudflare Turnstile check of the bot-challenge token (`?turnstile=`) on registration,
 * verification-code and password-reset routes, when TurnstileCheckEnabled. TURNSTILE_VERIFY_URL may
 * point elsewhere (tests, air-gapped mirrors).
 * Cloudflare accepts a token once, but the console sends the same one to /api/verification and then
 * to /api/user/register: a passed token is therefore remembered for the same client address (as
 * one-api remembers it in the session), on every node when Redis is configured.
 * https://developers.cloudflare.com/turnstile/get-started/server-side-validation/
 */
export async function checkTurnstile(context: AppContext, incoming: FastifyRequest): Promise<void> {
  if (!context.options.boolean('TurnstileCheckEnabled')) return
  const token = (incoming.query as { turnstile?: unknown }).turnstile
  if (typeof token !== 'string' || token === '' || token.length > 4096) {
    throw forbidden('The bot check is missing: please retry in a few seconds')
  }
  const passedKey = `turnstile:${createHash('sha256').update(token).digest('hex')}`
  if (await context.oneTimeCodes.consume(passedKey, incoming.ip)) {
    await context.oneTimeCodes.put(passedKey, incoming.ip, PASSED_CHECK_TTL_SECONDS)
    return
  }
  if (!(await verifyWithCloudflare(context, token, incoming.ip))) {
    throw forbidden('The bot check failed: please try again')
  }
  await context.oneTimeCodes.put(passedKey, incoming.ip, PASSED_CHECK_TTL_SECONDS)
}

async function verifyWithCloudflare(context: AppContext, token: string, remoteIp: string): Promise<boolean> {
  try {
    const response = await request(context.config.TURNSTILE_VERIFY_URL ?? DEFAULT_VERIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        secret: context.options.get('TurnstileSecretKey'),
        response: token,
        remoteip: remoteIp,
      }).toString(),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    })
    if (response.statusCode !== 200) {
      await response.body.dump()
      throw new Error(`status ${response.statusCode}`)
    }
    return ((await response.body.json()) as { success?: boolean }).success === true
  } catch {
    throw new AppError('service_unavailable', 'The bot check could not be verified: please try again')
  }
}
