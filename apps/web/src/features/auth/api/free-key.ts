import type { TokenView } from '@one-api/contracts/token'
import { NEVER_EXPIRES, tokenKeyForUse } from '@one-api/contracts/token'
import { apiGet, apiPost } from '@/lib/api-client.ts'

/** The default token a free-key sign-in creates when the person has none: quota 2,500,000, never expires. */
export const DEFAULT_TOKEN = {
  name: 'default',
  remain_quota: 2_500_000,
  expired_time: NEVER_EXPIRES,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: '',
} as const

/** The person's first token (listed newest first), or a new default one; answered as `sk-…`. */
export async function defaultTokenKey(): Promise<string> {
  const tokens = await apiGet<TokenView[]>('/api/token/?p=0')
  const existing = tokens.find((token) => token.name === DEFAULT_TOKEN.name) ?? tokens[0]
  const token = existing ?? (await apiPost<TokenView>('/api/token/', DEFAULT_TOKEN))
  return tokenKeyForUse(token.key)
}
