/** `GET /api/status` data: one-api's status record. */
export interface StatusRecord {
  version: string
  start_time: number
  system_name: string
  logo: string
  footer_html: string
  server_address: string
  quota_per_unit: number
  display_in_currency: boolean
  chat_link: string
  top_up_link: string
  email_verification: boolean
  github_oauth: boolean
  github_client_id: string
  /** Base of GitHub's OAuth pages (`/login/oauth/authorize`): github.com or an Enterprise server. */
  github_oauth_url: string
  lark_client_id: string
  /** Base of Lark's authorize page (`/open-apis/authen/v1/authorize`). */
  lark_oauth_url: string
  wechat_qrcode: string
  wechat_login: boolean
  turnstile_check: boolean
  turnstile_site_key: string
  oidc: boolean
  oidc_client_id: string
  oidc_well_known: string
  oidc_authorization_endpoint: string
  oidc_token_endpoint: string
  oidc_userinfo_endpoint: string
  password_login_enabled: boolean
  password_register_enabled: boolean
  register_enabled: boolean
  theme: string
  /** Free-key mode: the GitHub callback shows the API URL and the default token's key. */
  free_key_mode: boolean
  /** The paid service the free-key screen links to. */
  free_key_paid_link: string
}
