/**
 * The local storage keys one-api's console uses (kept, so a user signed in there stays signed in),
 * plus the console's own preferences.
 */
export const StorageKey = {
  user: 'user',
  status: 'status',
  systemName: 'system_name',
  logo: 'logo',
  quotaPerUnit: 'quota_per_unit',
  displayInCurrency: 'display_in_currency',
  serverAddress: 'server_address',
  chatLink: 'chat_link',
  channelModels: 'channel_models',
  language: 'language',
  colorScheme: 'color_scheme',
  dismissedNotice: 'dismissed_notice',
  channelNoticeDismissed: 'channel_notice_dismissed',
} as const

// Storage can be unavailable (private mode, blocked cookies); the console then works without it.
export function readItem(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writeItem(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // Nothing to do: the value simply is not remembered.
  }
}

export function removeItem(key: string): void {
  try {
    window.localStorage.removeItem(key)
  } catch {
    // Nothing to do.
  }
}

/** Reads JSON written by this console; anything unreadable counts as absent. */
export function readJson(key: string): unknown {
  const raw = readItem(key)
  if (!raw) return undefined
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}
