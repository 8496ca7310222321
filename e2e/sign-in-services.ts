import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { FAKE_CLIENT, FakeOAuthProviders } from '../apps/server/src/testing/fake-oauth-providers.ts'
import { OIDC_CLIENT, OidcIssuer } from '../apps/server/src/testing/oidc-issuer.ts'
import { SmtpSink } from '../apps/server/src/testing/smtp-sink.ts'
import { ROOT_PASSWORD } from './constants.ts'

/**
 * The sign-in providers of the browser tests, on 127.0.0.1: a real SMTP server (smtp-server), a real
 * OpenID provider (oidc-provider), local fakes of GitHub's and Lark's OAuth endpoints, and a small
 * mailbox over HTTP through which the tests (other processes) read the mail the SMTP server received.
 */
export class SignInServices {
  private constructor(
    readonly smtp: SmtpSink,
    readonly oauth: FakeOAuthProviders,
    private readonly mailbox: Server,
    private oidc?: OidcIssuer,
  ) {}

  /** Starts everything the gateway must know at its start (the env of `gatewayEnv`). */
  static async start(): Promise<SignInServices> {
    const smtp = await SmtpSink.start()
    const oauth = await FakeOAuthProviders.start()
    const mailbox = createServer((request, response) => {
      const to = new URL(request.url ?? '/', 'http://mailbox').searchParams.get('to') ?? ''
      const mails = smtp.mails.filter((mail) => mail.to.includes(to))
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(mails))
    })
    await new Promise<void>((resolve) => mailbox.listen(0, '127.0.0.1', resolve))
    return new SignInServices(smtp, oauth, mailbox)
  }

  get mailboxUrl(): string {
    return `http://127.0.0.1:${(this.mailbox.address() as AddressInfo).port}`
  }

  gatewayEnv(): Record<string, string> {
    return {
      GITHUB_OAUTH_URL: this.oauth.url,
      GITHUB_API_URL: this.oauth.url,
      LARK_OPEN_API_URL: this.oauth.url,
      LARK_PASSPORT_URL: this.oauth.url,
    }
  }

  /**
   * Once the gateway listens: the OpenID provider (its redirect URI is the gateway's), and the options
   * every test may rely on: the server address, SMTP and the providers' client ids and secrets. The
   * switches (GitHubOAuthEnabled, OidcEnabled, EmailVerificationEnabled) stay off: the sign-in tests
   * turn them on and back off.
   */
  async configureGateway(baseUrl: string): Promise<void> {
    this.oauth.githubCallbackUrl = `${baseUrl}/oauth/github`
    this.oidc = await OidcIssuer.start(`${baseUrl}/oauth/oidc`)
    const login = await fetch(`${baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: ROOT_PASSWORD }),
    })
    const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0]
    const options: Record<string, string> = {
      ServerAddress: baseUrl,
      SMTPServer: '127.0.0.1',
      SMTPPort: String(this.smtp.port),
      SMTPAccount: this.smtp.account,
      SMTPToken: this.smtp.password,
      SMTPFrom: 'noreply@example.com',
      GitHubClientId: FAKE_CLIENT.id,
      GitHubClientSecret: FAKE_CLIENT.secret,
      OidcClientId: OIDC_CLIENT.id,
      OidcClientSecret: OIDC_CLIENT.secret,
      OidcWellKnown: this.oidc.wellKnown,
      WeChatServerAddress: this.oauth.url,
      WeChatServerToken: FAKE_CLIENT.wechatToken,
    }
    for (const [key, value] of Object.entries(options)) {
      const response = await fetch(`${baseUrl}/api/option/`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ key, value }),
      })
      const body = (await response.json()) as { success: boolean; message: string }
      if (!body.success) throw new Error(`setting ${key} failed: ${body.message}`)
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.mailbox.close(() => resolve()))
    await Promise.all([this.smtp.close(), this.oauth.close(), this.oidc?.close()])
  }
}
