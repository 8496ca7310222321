import { parseRowId } from '@one-api/contracts/user-admin'
import { RelayError } from './relay-error.ts'

/**
 * A channel id a client wrote (the `-<id>` of a pinning key, the proxy route's path), read by the
 * same rule as the management API's path ids; anything else is a clear 400 before any query.
 */
export function readChannelId(text: string): number {
  const id = parseRowId(text)
  if (id === undefined) {
    throw new RelayError(
      400,
      `The channel id must be a positive whole number, not "${text}"`,
      'invalid_channel_id',
      'invalid_request_error',
    )
  }
  return id
}
