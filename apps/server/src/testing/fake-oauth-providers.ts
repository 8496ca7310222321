import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeProfile {
  /** GitHub login / Lark open_id / WeChat id. */
  id: string
  name?: string
  email?: string
}

type Provider = 'github' | 'lark' | 'wechat'

const AUTHORIZE_PAGES: Record<string, Provider> = {
  '/login/oauth/authorize': 'github',
  '/open-apis/authen/v1/authorize': 'lark',
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

export const FAKE_CLIENT = {
  id: 'fake-client-id',
  secret: 'fake-client-secret',
  wechatToken: 'wechat-server-token',
}

/**
 * Local stand-ins for GitHub's and Lark's OAuth endpoints and for a WeChat server, with their
 * documented request and response shapes:
 * - GitHub: POST /login/oauth/access_token (JSON or form; `{access_token, token_type, scope}`, or
 *   200 `{error: 'bad_verification_code'}`), GET /user (Bearer; `{login, id, name, email}`).
 * - Lark: POST /open-apis/authen/v2/oauth/token (JSON; `{code: 0, access_token, ...}` or 400
 *   `{code, error: 'invalid_grant'}`), GET /suite/passport/oauth/userinfo (Bearer; `{sub, open_id, name,
 *   en_name, email}`).
 * - WeChat server: GET /api/wechat/user?code= (`Authorization: <token>`; `{success, message, data}`).
 * - The authorize pages a browser is sent to (GitHub GET /login/oauth/authorize, Lark GET
 *   /open-apis/authen/v1/authorize): a form that asks which account to be, then redirects to the
 *   app's callback (`redirect_uri`, or the callback URL registered for GitHub) with `code` and `state`.
 * Codes are single use and may be issued already expired.
 */
export class FakeOAuthProviders {
  readonly requests: Array<{ path: string; body: string }> = []
  private readonly codes = new Map<string, { provider: Provider; profile: FakeProfile; expired: boolean }>()
  private readonly tokens = new Map<string, { provider: Provider; profile: FakeProfile }>()

  /** The callback URL registered for the GitHub app (GitHub sends the browser there). */
  githubCallbackUrl = ''

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeOAuthProviders> {
    let fake: FakeOAuthProviders | undefined
    const server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => {
        body += chunk
      })
      request.on('end', () => fake?.handle(request, body, response))
    })
    fake = new FakeOAuthProviders(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return fake
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  /** A code the provider would hand the browser after the person authorized the app. */
  issueCode(provider: Provider, profile: FakeProfile, options: { expired?: boolean } = {}): string {
    const code = randomBytes(10).toString('hex')
    this.codes.set(code, { provider, profile, expired: options.expired ?? false })
    return code
  }

  private takeCode(provider: Provider, code: string | undefined) {
    const entry = code ? this.codes.get(code) : undefined
    if (!entry || entry.provider !== provider) return undefined
    this.codes.delete(code as string)
    return entry.expired ? undefined : entry
  }

  private newToken(provider: Provider, profile: FakeProfile): string {
    const token = `${provider}-token-${randomBytes(8).toString('hex')}`
    this.tokens.set(token, { provider, profile })
    return token
  }

  private bearer(request: IncomingMessage, provider: Provider) {
    const token = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    const entry = token ? this.tokens.get(token) : undefined
    return entry?.provider === provider ? entry.profile : undefined
  }

  private handle(request: IncomingMessage, body: string, response: ServerResponse): undefined {
    const url = new URL(request.url ?? '/', this.url)
    this.requests.push({ path: url.pathname, body })
    const send = (status: number, payload: unknown): undefined => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(payload))
    }
    const input = (): Record<string, string> => {
      if ((request.headers['content-type'] ?? '').includes('json')) return JSON.parse(body || '{}')
      return Object.fromEntries(new URLSearchParams(body))
    }
    const authorizePage = AUTHORIZE_PAGES[url.pathname]
    if (authorizePage) return this.authorize(authorizePage, request.method, url, body, response)
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = input()
      const entry = this.takeCode('github', form.code)
      if (form.client_id !== FAKE_CLIENT.id || form.client_secret !== FAKE_CLIENT.secret) {
        return send(200, {
          error: 'incorrect_client_credentials',
          error_description: 'The client_id and/or client_secret passed are incorrect.',
        })
      }
      if (!entry) {
        return send(200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        })
      }
      return send(200, {
        access_token: this.newToken('github', entry.profile),
        token_type: 'bearer',
        scope: 'user:email',
      })
    }
    if (request.method === 'GET' && url.pathname === '/user') {
      const profile = this.bearer(request, 'github')
      if (!profile) return send(401, { message: 'Bad credentials' })
      return send(200, {
        login: profile.id,
        id: 1000 + profile.id.length,
        name: profile.name ?? null,
        email: profile.email ?? null,
      })
    }
    if (request.method === 'POST' && url.pathname === '/open-apis/authen/v2/oauth/token') {
      const form = input()
      const entry = this.takeCode('lark', form.code)
      if (
        form.grant_type !== 'authorization_code' ||
        form.client_id !== FAKE_CLIENT.id ||
        form.client_secret !== FAKE_CLIENT.secret ||
        !entry
      ) {
        return send(400, {
          code: 20003,
          error: 'invalid_grant',
          error_description: 'The authorization code is invalid or expired',
        })
      }
      return send(200, {
        code: 0,
        access_token: this.newToken('lark', entry.profile),
        expires_in: 7200,
        token_type: 'Bearer',
        scope: '',
      })
    }
    if (request.method === 'GET' && url.pathname === '/suite/passport/oauth/userinfo') {
      const profile = this.bearer(request, 'lark')
      if (!profile) return send(401, { code: 20005, msg: 'invalid access token' })
      return send(200, {
        sub: profile.id,
        open_id: profile.id,
        union_id: `on_${profile.id}`,
        name: profile.name ?? '',
        en_name: profile.name ?? '',
        email: profile.email ?? '',
      })
    }
    if (request.method === 'GET' && url.pathname === '/api/wechat/user') {
      if (request.headers.authorization !== FAKE_CLIENT.wechatToken)
        return send(200, { success: false, message: 'Wrong token' })
      const entry = this.takeCode('wechat', url.searchParams.get('code') ?? undefined)
      if (!entry) return send(200, { success: false, message: 'The code is invalid or has expired' })
      return send(200, { success: true, message: '', data: entry.profile.id })
    }
    send(404, { message: 'Not Found' })
  }

  /**
   * The provider's consent page: GET shows a form (the account to be, as login), POST issues a code
   * for it and redirects back with the state.
   */
  private authorize(
    provider: Provider,
    method: string | undefined,
    url: URL,
    body: string,
    response: ServerResponse,
  ): undefined {
    const query = method === 'POST' ? new URLSearchParams(body) : url.searchParams
    const clientId = query.get('client_id') ?? ''
    const callback = query.get('redirect_uri') || (provider === 'github' ? this.githubCallbackUrl : '')
    if (clientId !== FAKE_CLIENT.id || !callback) {
      response.writeHead(400, { 'content-type': 'text/plain' })
      response.end('unknown client_id or no redirect_uri')
      return
    }
    if (method === 'POST') {
      const login = query.get('login') || 'octocat'
      const code = this.issueCode(provider, {
        id: login,
        name: login,
        email: query.get('email') || undefined,
      })
      const back = new URL(callback)
      back.searchParams.set('code', code)
      back.searchParams.set('state', query.get('state') ?? '')
      response.writeHead(302, { location: back.href })
      response.end()
      return
    }
    const hidden = ['client_id', 'state', 'redirect_uri', 'scope']
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(query.get(name) ?? '')}">`)
      .join('')
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(
      `<!doctype html><html lang="en"><head><title>Authorize application</title></head><body><main>` +
        `<h1>Authorize application (${provider})</h1><form method="post" action="${url.pathname}">${hidden}` +
        '<label>Account login <input name="login" required></label> ' +
        '<label>Email <input name="email" type="email"></label> ' +
        '<button type="submit">Authorize</button></form></main></body></html>',
    )
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
