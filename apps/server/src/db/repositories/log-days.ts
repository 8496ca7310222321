/** Logs are summed per UTC day: the day of a Unix timestamp (seconds) is its count of whole days. */
export const SECONDS_PER_DAY = 86_400

export const dayOf = (timestamp: number) => Math.floor(timestamp / SECONDS_PER_DAY)
