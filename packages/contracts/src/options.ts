/**
 * The option catalogue: every key the `options` table may hold, its kind and default.
 * Kinds drive validation on `PUT /api/option/` and parsing when options are loaded.
 * Enable-type values travel as the strings 'true' / 'false', as one-api stores them.
 */
export type OptionKind = 'boolean' | 'integer' | 'number' | 'string' | 'url' | 'json-ratio' | 'secret'

export interface OptionDefinition {
  kind: OptionKind
  default: string
}

const bool = (value: boolean): OptionDefinition => ({ kind: 'boolean', default: String(value) })
const int = (value: number): OptionDefinition => ({ kind: 'integer', default: String(value) })
const num = (value: number): OptionDefinition => ({ kind: 'number', default: String(value) })
const str = (value = ''): OptionDefinition => ({ kind: 'string', default: value })
const url = (): OptionDefinition => ({ kind: 'url', default: '' })
const secret = (): OptionDefinition => ({ kind: 'secret', default: '' })
const ratio = (value: Record<string, number>): OptionDefinition => ({
  kind: 'json-ratio',
  default: JSON.stringify(value),
})

export const DEFAULT_EMAIL_DOMAIN_WHITELIST =
  'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com'

export const OPTION_DEFINITIONS = {
  // System
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: str(),
  GitHubClientSecret: secret(),
  LarkClientId: str(),
  LarkClientSecret: secret(),
  OidcEnabled: bool(false),
  OidcClientId: str(),
  OidcClientSecret: secret(),
  OidcWellKnown: url(),
  OidcAuthorizationEndpoint: url(),
  OidcTokenEndpoint: url(),
  OidcUserinfoEndpoint: url(),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: url(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: str(),
  MessagePusherAddress: url(),
  MessagePusherToken: secret(),
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: secret(),
  RegisterEnabled: bool(true),
  EmailDomainRestrictionEnabled: bool(false),
  EmailDomainWhitelist: str(DEFAULT_EMAIL_DOMAIN_WHITELIST),
  SMTPServer: str(),
  SMTPPort: int(587),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: secret(),
  ServerAddress: url(),
  // Free-key mode: after a GitHub sign-in the console shows the API URL and the person's default key.
  FreeKeyModeEnabled: bool(false),
  FreeKeyPaidServiceLink: url(),
  // Operations
  QuotaForNewUser: int(0),
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  QuotaRemindThreshold: int(1000),
  PreConsumedQuota: int(500),
  ModelRatio: ratio({}),
  CompletionRatio: ratio({}),
  GroupRatio: ratio({ default: 1, vip: 1, svip: 1 }),
  TopUpLink: str(),
  ChatLink: str(),
  QuotaPerUnit: num(500_000),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  ChannelDisableThreshold: num(5),
  LogConsumeEnabled: bool(true),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  ApproximateTokenEnabled: bool(false),
  RetryTimes: int(0),
  // Other
  Footer: str(),
  Notice: str(),
  About: str(),
  SystemName: str('One API'),
  Logo: str(),
  HomePageContent: str(),
  Theme: str('default'),
} as const satisfies Record<string, OptionDefinition>

export type OptionKey = keyof typeof OPTION_DEFINITIONS
export const OPTION_KEYS = Object.keys(OPTION_DEFINITIONS) as OptionKey[]

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(OPTION_DEFINITIONS, key)
}

/** Secrets are write-only: never listed by `GET /api/option/`. */
export function isSecretOption(key: OptionKey): boolean {
  return OPTION_DEFINITIONS[key].kind === 'secret'
}

/** Human names of the JSON ratio options, for one-api's validation messages. */
export const RATIO_OPTION_LABELS: Partial<Record<OptionKey, string>> = {
  ModelRatio: 'model ratio',
  GroupRatio: 'group ratio',
  CompletionRatio: 'completion ratio',
}
