import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export const OIDC_CLIENT = { id: 'gateway-console', secret: 'oidc-client-secret-0123456789abcdef' }

export interface OidcPerson {
  sub: string
  preferred_username?: string
  name?: string
  email?: string
}

/**
 * A real OpenID Connect provider (the oidc-provider package) on 127.0.0.1 with one confidential
 * client (client_secret_post, PKCE required) and its built-in development sign-in pages, plus a
 * driver that plays the person's browser through them.
 */
export class OidcIssuer {
  private readonly people = new Map<string, OidcPerson>()

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(redirectUri: string): Promise<OidcIssuer> {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const instance = new OidcIssuer(server, issuer)
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: OIDC_CLIENT.id,
          client_secret: OIDC_CLIENT.secret,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'client_secret_post',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => true },
      claims: {
        openid: ['sub'],
        profile: ['name', 'preferred_username'],
        email: ['email', 'email_verified'],
      },
      cookies: { keys: ['oidc-test-cookie-key'] },
      findAccount: async (_context, id) => ({
        accountId: id,
        claims: async () => {
          const person: OidcPerson = instance.people.get(id) ?? { sub: id }
          return { ...person, sub: id, email_verified: person.email ? true : undefined }
        },
      }),
    })
    server.on('request', provider.callback())
    return instance
  }

  get wellKnown(): string {
    return `${this.issuer}/.well-known/openid-configuration`
  }

  addPerson(person: OidcPerson): void {
    this.people.set(person.sub, person)
  }

  /**
   * Follows the authorization request as a browser would: the development login form (as `login`),
   * the consent form, and returns the redirect back to the console (with `code` and `state`).
   */
  async authorize(authorizationUrl: string, login: string): Promise<URL> {
    const cookies = new Map<string, string>()
    let url = authorizationUrl
    let form: URLSearchParams | undefined
    for (let step = 0; step < 12; step++) {
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form?.toString(),
      })
      form = undefined
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';')
        const index = pair.indexOf('=')
        cookies.set(pair.slice(0, index), pair.slice(index + 1))
      }
      const location = response.headers.get('location')
      if (location) {
        const next = new URL(location, url)
        if (!next.href.startsWith(this.issuer)) return next
        url = next.href
        continue
      }
      const html = await response.text()
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
      const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1]
      if (!action || !prompt) throw new Error(`unexpected page from the OIDC provider: ${html.slice(0, 300)}`)
      url = new URL(action, url).href
      form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt })
    }
    throw new Error('the OIDC provider did not redirect back')
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
