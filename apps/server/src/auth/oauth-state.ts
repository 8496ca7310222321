import { createHash, randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../app-context.ts'
import { forbidden } from '../http/errors.ts'
import { randomString } from './random.ts'

/** The cookie naming the browser that asked for a state; the state is valid only with it. */
export const OAUTH_BROWSER_COOKIE = 'oauth_browser'
export const OAUTH_STATE_TTL_SECONDS = 10 * 60
const STATE_LENGTH = 12

interface StateRecord {
  browser: string
  /** PKCE code verifier, sent with the code to the OIDC token endpoint. */
  verifier: string
}

export interface IssuedState {
  state: string
  codeChallenge: string
}

/**
 * A fresh OAuth `state` (12 characters, as one-api) bound to this browser by a cookie, single use,
 * valid 10 minutes, stored where every node finds it. A PKCE verifier is kept with it; the S256
 * challenge goes to the authorization request.
 */
export async function issueOAuthState(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<IssuedState> {
  let browser = request.cookies[OAUTH_BROWSER_COOKIE]
  if (!browser || !/^[A-Za-z0-9]{32}$/.test(browser)) browser = randomString(32)
  const state = randomString(STATE_LENGTH)
  const verifier = randomBytes(32).toString('base64url')
  const record: StateRecord = { browser, verifier }
  await context.oneTimeCodes.put(`oauth-state:${state}`, JSON.stringify(record), OAUTH_STATE_TTL_SECONDS)
  reply.setCookie(OAUTH_BROWSER_COOKIE, browser, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: OAUTH_STATE_TTL_SECONDS,
  })
  return { state, codeChallenge: createHash('sha256').update(verifier).digest('base64url') }
}

/**
 * Uses up the `state` of a callback: it must have been issued to this browser less than 10 minutes
 * ago and not used before. Returns the PKCE verifier kept with it.
 */
export async function consumeOAuthState(context: AppContext, request: FastifyRequest): Promise<string> {
  const state = (request.query as { state?: unknown }).state
  const refused = forbidden('The sign-in state is invalid or has expired: please start the sign-in again')
  if (typeof state !== 'string' || state.length !== STATE_LENGTH) throw refused
  const stored = await context.oneTimeCodes.take(`oauth-state:${state}`)
  if (!stored) throw refused
  const record = JSON.parse(stored) as StateRecord
  if (record.browser !== request.cookies[OAUTH_BROWSER_COOKIE]) throw refused
  return record.verifier
}
