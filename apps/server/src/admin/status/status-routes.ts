import type { StatusRecord } from '@one-api/contracts'
import { Role } from '@one-api/contracts/roles'
import type { AppContext } from '../../app-context.ts'
import { ok, type RouteDefinition } from '../../http/route.ts'

/** Public information the console needs before anyone signs in. */
export function statusRoutes(context: AppContext): RouteDefinition[] {
  const { options } = context
  const status = (): StatusRecord => ({
    version: context.version,
    start_time: context.startTime,
    system_name: options.get('SystemName'),
    logo: options.get('Logo'),
    footer_html: options.get('Footer'),
    server_address: options.get('ServerAddress') || `http://localhost:${context.config.PORT}`,
    quota_per_unit: options.number('QuotaPerUnit'),
    display_in_currency: options.boolean('DisplayInCurrencyEnabled'),
    chat_link: options.get('ChatLink'),
    top_up_link: options.get('TopUpLink'),
    email_verification: options.boolean('EmailVerificationEnabled'),
    github_oauth: options.boolean('GitHubOAuthEnabled'),
    github_client_id: options.get('GitHubClientId'),
    github_oauth_url: context.config.GITHUB_OAUTH_URL.replace(/\/+$/, ''),
    lark_client_id: options.get('LarkClientId'),
    lark_oauth_url: context.config.LARK_OPEN_API_URL.replace(/\/+$/, ''),
    wechat_qrcode: options.get('WeChatAccountQRCodeImageURL'),
    wechat_login: options.boolean('WeChatAuthEnabled'),
    turnstile_check: options.boolean('TurnstileCheckEnabled'),
    turnstile_site_key: options.get('TurnstileSiteKey'),
    oidc: options.boolean('OidcEnabled'),
    oidc_client_id: options.get('OidcClientId'),
    oidc_well_known: options.get('OidcWellKnown'),
    oidc_authorization_endpoint: options.get('OidcAuthorizationEndpoint'),
    oidc_token_endpoint: options.get('OidcTokenEndpoint'),
    oidc_userinfo_endpoint: options.get('OidcUserinfoEndpoint'),
    password_login_enabled: options.boolean('PasswordLoginEnabled'),
    password_register_enabled: options.boolean('PasswordRegisterEnabled'),
    register_enabled: options.boolean('RegisterEnabled'),
    theme: options.get('Theme'),
    free_key_mode: options.boolean('FreeKeyModeEnabled'),
    free_key_paid_link: options.get('FreeKeyPaidServiceLink'),
  })
  return [
    { method: 'GET', url: '/api/status', access: Role.Guest, handler: async () => ok(status()) },
    { method: 'GET', url: '/api/notice', access: Role.Guest, handler: async () => ok(options.get('Notice')) },
    { method: 'GET', url: '/api/about', access: Role.Guest, handler: async () => ok(options.get('About')) },
    {
      method: 'GET',
      url: '/api/home_page_content',
      access: Role.Guest,
      handler: async () => ok(options.get('HomePageContent')),
    },
  ]
}
