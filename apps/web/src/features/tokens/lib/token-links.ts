import { tokenKeyForUse } from '@one-api/contracts/token'

/** Client apps a token can be handed to, in the copy menu's order. */
export const CLIENT_APPS = ['next', 'ama', 'opencat'] as const
export type ClientApp = (typeof CLIENT_APPS)[number]

/** The hosted ChatGPT-Next-Web app, used when the administrator set no chat link. */
export const DEFAULT_CHAT_LINK = 'https://app.nextchat.dev'

/**
 * The link that opens a client app already set up with this gateway and the token's key (`sk-`
 * added): ChatGPT-Next-Web through the configured chat link (else the hosted app), AMA and
 * OpenCat through their URL schemes.
 */
export function clientAppLink(app: ClientApp, key: string, serverAddress: string, chatLink: string): string {
  const fullKey = tokenKeyForUse(key)
  const server = encodeURIComponent(serverAddress)
  if (app === 'ama') return `ama://set-api-key?server=${server}&key=${fullKey}`
  if (app === 'opencat') return `opencat://team/join?domain=${server}&token=${fullKey}`
  const settings = JSON.stringify({ key: fullKey, url: serverAddress })
  return `${(chatLink || DEFAULT_CHAT_LINK).replace(/\/+$/, '')}/#/?settings=${encodeURIComponent(settings)}`
}
