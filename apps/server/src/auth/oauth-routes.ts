import { Role } from '@one-api/contracts'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../app-context.ts'
import { findUserByIdentity, updateUserFields } from '../db/repositories/users-repository.ts'
import { conflict, forbidden } from '../http/errors.ts'
import { currentUser, ok, type RouteDefinition } from '../http/route.ts'
import { githubIdentity } from './github-oauth.ts'
import { larkIdentity } from './lark-oauth.ts'
import { completeExternalSignIn, type ExternalIdentity } from './oauth-account.ts'
import { consumeOAuthState, issueOAuthState } from './oauth-state.ts'
import { oidcEndpoints, oidcIdentity } from './oidc-auth.ts'
import { wechatIdentity } from './wechat-auth.ts'

const MAX_CODE_LENGTH = 1024

/** The provider's one-time `code` of a callback; a missing one is refused before any call. */
function codeOf(request: FastifyRequest): string {
  const code = (request.query as { code?: unknown }).code
  if (typeof code !== 'string' || code === '' || code.length > MAX_CODE_LENGTH) {
    throw forbidden('The authorization code is missing: please sign in again')
  }
  return code
}

/**
 * Third-party sign-in: GitHub, Lark and OIDC callbacks need a state from /api/oauth/state; WeChat
 * codes come from the official account. Each signs in, registers (when open) or, when the caller is
 * signed in, binds the identity to them.
 */
export function oauthRoutes(context: AppContext): RouteDefinition[] {
  const { options } = context
  /** A provider whose callback carries a state from /api/oauth/state (and, for OIDC, its verifier). */
  const stateSignIn = (
    url: string,
    provider: string,
    enabled: () => boolean,
    identify: (code: string, verifier: string) => Promise<ExternalIdentity>,
  ): RouteDefinition => ({
    method: 'GET',
    url,
    access: Role.Guest,
    rateLimit: 'critical',
    handler: async (request, reply) => {
      if (!enabled()) {
        throw forbidden(`The administrator has not enabled sign-in and registration with ${provider}`)
      }
      const verifier = await consumeOAuthState(context, request)
      const identity = await identify(codeOf(request), verifier)
      return completeExternalSignIn(context, request, reply, identity)
    },
  })
  return [
    {
      method: 'GET',
      url: '/api/oauth/state',
      access: Role.Guest,
      rateLimit: 'critical',
      handler: async (request, reply) => {
        const issued = await issueOAuthState(context, request, reply)
        // `?pkce=S256` (OIDC): the challenge and the authorization endpoint come with the state.
        if ((request.query as { pkce?: unknown }).pkce !== 'S256') return ok(issued.state)
        const endpoints = options.boolean('OidcEnabled') ? await oidcEndpoints(context) : undefined
        return ok({
          state: issued.state,
          code_challenge: issued.codeChallenge,
          code_challenge_method: 'S256',
          authorization_endpoint: endpoints?.authorization ?? '',
        })
      },
    },
    stateSignIn(
      '/api/oauth/github',
      'GitHub',
      () => options.boolean('GitHubOAuthEnabled'),
      (code) => githubIdentity(context, code),
    ),
    stateSignIn(
      '/api/oauth/lark',
      'Lark',
      () => Boolean(options.get('LarkClientId')),
      (code) => larkIdentity(context, code),
    ),
    stateSignIn(
      '/api/oauth/oidc',
      'OIDC',
      () => options.boolean('OidcEnabled'),
      (code, verifier) => oidcIdentity(context, code, verifier),
    ),
    {
      method: 'GET',
      url: '/api/oauth/wechat',
      access: Role.Guest,
      rateLimit: 'critical',
      handler: async (request, reply) => {
        if (!options.boolean('WeChatAuthEnabled')) {
          throw forbidden('The administrator has not enabled sign-in and registration with WeChat')
        }
        const identity = await wechatIdentity(context, codeOf(request))
        return completeExternalSignIn(context, request, reply, identity)
      },
    },
    {
      method: 'GET',
      url: '/api/oauth/wechat/bind',
      access: Role.Common,
      changesState: true,
      rateLimit: 'critical',
      handler: async (request) => {
        if (!options.boolean('WeChatAuthEnabled')) {
          throw forbidden('The administrator has not enabled sign-in and registration with WeChat')
        }
        const user = currentUser(request)
        const identity = await wechatIdentity(context, codeOf(request))
        const holder = await findUserByIdentity(context.db, 'wechat_id', identity.subject)
        if (holder && holder.id !== user.id)
          throw conflict('This WeChat account is already bound to another user')
        await updateUserFields(context.db, user.id, { wechat_id: identity.subject })
        return ok(undefined, 'bind')
      },
    },
  ]
}
