import type { TokenView } from '@one-api/contracts/token'
import type { TokenRow } from '../../db/repositories/tokens-repository.ts'
import { toBoolean } from '../../db/schema.ts'

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
    status: row.status,
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
