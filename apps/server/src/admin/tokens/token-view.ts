import { TokenStatus } from '@one-api/contracts'
import type { TokenView } from '@one-api/contracts/token'
import type { TokenRow } from '../../db/repositories/tokens-repository.ts'
import { toBoolean } from '../../db/schema.ts'
import { isPastExpiry } from './token-status.ts'

/**
 * The reply shape of every token route: the key bare, without `sk-` (one-api's console adds the
 * prefix itself, and showed `sk-sk-…` otherwise), booleans as booleans.
 */
export function toTokenView(row: TokenRow): TokenView {
  const models = row.models ?? ''
  return {
    id: row.id,
    name: row.name,
    // PostgreSQL pads the char(48) column with spaces for keys shorter than 48.
    key: row.key.trimEnd(),
    status: shownStatus(row),
    used_quota: Number(row.used_quota),
    remain_quota: Number(row.remain_quota),
    unlimited_quota: toBoolean(row.unlimited_quota),
    created_time: Number(row.created_time),
    accessed_time: Number(row.accessed_time),
    expired_time: Number(row.expired_time),
    models,
    subnet: row.subnet ?? '',
    model_limits_enabled: models !== '',
    model_limits: models,
  }
}

/**
 * The status as one-api shows it: an enabled token past its expiry is 3 (expired), one whose
 * limited quota is used up is 4 (exhausted). Derived when read, so raising the quota or extending
 * the expiry shows it enabled again at once.
 */
function shownStatus(row: TokenRow): number {
  if (row.status !== TokenStatus.enabled) return row.status
  if (isPastExpiry(Number(row.expired_time))) return TokenStatus.expired
  if (!toBoolean(row.unlimited_quota) && Number(row.remain_quota) <= 0) return TokenStatus.exhausted
  return row.status
}
