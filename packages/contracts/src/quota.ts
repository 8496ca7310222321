/** Quota units: integer quota, 500 000 per US dollar by default (one-api's QuotaPerUnit). */
export const DEFAULT_QUOTA_PER_UNIT = 500_000
/** Quota given to the first root user, as one-api does. */
export const ROOT_INITIAL_QUOTA = 500_000_000_000_000
/** Default token created for every new user. */
export const DEFAULT_TOKEN_NAME = 'default'
export const DEFAULT_TOKEN_QUOTA = 2_500_000
/** Page size of every management list (one-api ITEMS_PER_PAGE). */
export const ITEMS_PER_PAGE = 10
/** Maximum rows a search returns (one-api MaxRecentItems). */
export const MAX_RECENT_ITEMS = 100

/** Renders a quota the way one-api's LogQuota does, for log contents and messages. */
export function formatQuota(quota: number, displayInCurrency: boolean, quotaPerUnit: number): string {
  if (displayInCurrency) return `$${(quota / quotaPerUnit).toFixed(6)} quota`
  return `${quota} quota points`
}
