import { TokenStatus } from '@one-api/contracts'
import {
  NEVER_EXPIRES,
  TOKEN_EXHAUSTED_MESSAGE,
  TOKEN_EXPIRED_MESSAGE,
  TOKEN_EXPIRY_IN_PAST_MESSAGE,
} from '@one-api/contracts/token'
import { badRequest } from '../../http/errors.ts'

export interface TokenLimits {
  expired_time: number
  remain_quota: number
  unlimited_quota: boolean
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

export function isPastExpiry(expiredTime: number, now = nowSeconds()): boolean {
  return expiredTime !== NEVER_EXPIRES && expiredTime <= now
}

/** A new expiry must lie in the future (or be "never"). */
export function assertExpiryNotPast(expiredTime: number): void {
  if (isPastExpiry(expiredTime)) throw badRequest(TOKEN_EXPIRY_IN_PAST_MESSAGE)
}

/**
 * The status a token gets when its owner asks for `requested` (undefined or 3/4: keep). Enabling
 * a token that is not already enabled is refused while it is expired or out of quota, judged by
 * the limits it will have after this request, so a full update that fixes the expiry or quota
 * may enable it in the same call. Status 3/4 rows whose limits are already fixed may be enabled:
 * those statuses only record why the relay stopped the token.
 */
export function resolveStatus(current: number, requested: number | undefined, limits: TokenLimits): number {
  if (requested === TokenStatus.disabled) return TokenStatus.disabled
  if (requested !== TokenStatus.enabled) {
    // A token the relay stopped (3/4) is enabled again once its limits are fixed.
    const stopped = current === TokenStatus.expired || current === TokenStatus.exhausted
    return stopped && withinLimits(limits) ? TokenStatus.enabled : current
  }
  if (current === TokenStatus.enabled) return current
  if (isPastExpiry(limits.expired_time)) throw badRequest(TOKEN_EXPIRED_MESSAGE)
  if (!limits.unlimited_quota && limits.remain_quota <= 0) throw badRequest(TOKEN_EXHAUSTED_MESSAGE)
  return TokenStatus.enabled
}

function withinLimits(limits: TokenLimits): boolean {
  return !isPastExpiry(limits.expired_time) && (limits.unlimited_quota || limits.remain_quota > 0)
}
