import 'i18next'
import type auth from './catalogues/en/auth.json'
import type channels from './catalogues/en/channels.json'
import type chat from './catalogues/en/chat.json'
import type core from './catalogues/en/core.json'
import type home from './catalogues/en/home.json'
import type logs from './catalogues/en/logs.json'
import type models from './catalogues/en/models.json'
import type redemptions from './catalogues/en/redemptions.json'
import type settings from './catalogues/en/settings.json'
import type tokens from './catalogues/en/tokens.json'
import type users from './catalogues/en/users.json'

// Translation keys are checked by the compiler against the English bundles together (one
// namespace, loaded piece by piece); a test checks that the Chinese bundles have exactly the same keys.
type Catalogue = typeof core &
  typeof auth &
  typeof channels &
  typeof chat &
  typeof home &
  typeof logs &
  typeof models &
  typeof redemptions &
  typeof settings &
  typeof tokens &
  typeof users

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: Catalogue }
  }
}
