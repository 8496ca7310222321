import { MAX_ROW_ID } from '@one-api/contracts/user-admin'
import { RelayError } from './relay-error.ts'

/**
 * A channel id a client wrote (the `-<id>` of a pinning key, the proxy route's path): digits naming
 * a row that can exist, else a clear 400 before any query. Number() alone let "1e3" through and
 * sent ids beyond the integer column to the database, which PostgreSQL answered with an error (500).
 */
export function readChannelId(text: string): number {
  const id = /^\d{1,10}$/.test(text) ? Number(text) : 0
  if (id < 1 || id > MAX_ROW_ID) {
    throw new RelayError(
      400,
      `The channel id must be a positive whole number, not "${text}"`,
      'invalid_channel_id',
      'invalid_request_error',
    )
  }
  return id
}
