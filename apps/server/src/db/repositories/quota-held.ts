import { type RawBuilder, sql } from 'kysely'

/**
 * `quota` less what the gateway's nodes hold for requests of token `tokenId` (or user `userId`) in
 * flight (billing/ledger/quota-holds.ts), as one SQL value. A balance an administrator sets is what
 * is left once those requests have settled: their reservations were taken from the old balance,
 * and settling gives back what they did not spend.
 */
export function quotaLessHolds(
  quota: number,
  owner: { tokenId: number } | { userId: number },
): RawBuilder<number> {
  const held =
    'tokenId' in owner
      ? sql`select coalesce(sum(amount), 0) from quota_holds where token_id = ${owner.tokenId} and amount > 0`
      : sql`select coalesce(sum(amount), 0) from quota_holds where user_id = ${owner.userId} and amount > 0`
  return sql<number>`${quota} - (${held})`
}
