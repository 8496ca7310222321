import { ChannelType, channelTypeInfo } from '@one-api/contracts/channel-types'
import type { TranslationKey } from '@/i18n/i18n.ts'
import { renderQuota } from '@/lib/quota-format.ts'

/** Status 1 enabled (green), 2 manually disabled (red), 3 disabled by the gateway (yellow). */
export function channelStatusDisplay(status: number): { label: TranslationKey; color: string } {
  if (status === 1) return { label: 'channels.status.enabled', color: 'green' }
  if (status === 2) return { label: 'channels.status.manuallyDisabled', color: 'red' }
  if (status === 3) return { label: 'channels.status.autoDisabled', color: 'yellow' }
  return { label: 'channels.status.unknown', color: 'gray' }
}

/** 0 is untested (grey); up to 1 s green, 3 s olive, 5 s yellow, slower red; shown as seconds. */
export function responseTimeDisplay(milliseconds: number): { text: string | undefined; color: string } {
  if (milliseconds <= 0) return { text: undefined, color: 'gray' }
  const text = `${(milliseconds / 1000).toFixed(2)} s`
  if (milliseconds <= 1000) return { text, color: 'green' }
  if (milliseconds <= 3000) return { text, color: 'lime' }
  if (milliseconds <= 5000) return { text, color: 'yellow' }
  return { text, color: 'red' }
}

/**
 * A balance in its provider's unit: US dollars for OpenAI (1) and custom (8) channels, yuan for
 * CloseAI (4) and API2GPT (12), yuan / 10,000 for OpenAI-SB (5), quota for AI Proxy (10) and
 * AIGC2D (13). undefined: the type reports no balance.
 */
export function balanceDisplay(
  type: number,
  balance: number,
  quota: { displayInCurrency: boolean; quotaPerUnit: number },
): string | undefined {
  switch (type) {
    case ChannelType.openAI:
    case ChannelType.custom:
      return `$${balance.toFixed(2)}`
    case 4:
    case 12:
      return `¥${balance.toFixed(2)}`
    case 5:
      return `¥${(balance / 10000).toFixed(2)}`
    case 10:
    case 13:
      return renderQuota(balance, quota.displayInCurrency, quota.quotaPerUnit)
    default:
      return undefined
  }
}

/** The type's label in the console's language. */
export function channelTypeName(type: number, language: string): string {
  const info = channelTypeInfo(type)
  if (!info) return String(type)
  return language.startsWith('zh') ? info.chineseName : info.name
}
