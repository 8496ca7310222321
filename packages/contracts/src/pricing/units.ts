/**
 * Price units of one-api's ratios. Ratio 1 = $0.002 per 1K tokens, so at ratio 1 one token costs one
 * quota point and $1 = 500 000 quota (QuotaPerUnit). Changing QuotaPerUnit does not rescale ratios.
 */

/** Ratio of a price of $1 per 1K tokens. */
export const USD = 500
/** Ratio of a price of $1 per 1M tokens. */
export const MILLI_USD = USD / 1000
/** Exchange rate one-api assumes for prices published in CNY. */
export const USD_TO_RMB = 7
/**
 * Ratio of a price of ¥1 per 1K tokens: 500 / 7 ≈ 71.43. One-api evaluated this as a Go integer
 * constant (71), pricing every CNY model about 0.6 % low; here it is the real quotient.
 */
export const RMB = USD / USD_TO_RMB
/** Ratio of a price of ¥1 per 1M tokens. */
export const MILLI_RMB = RMB / 1000
