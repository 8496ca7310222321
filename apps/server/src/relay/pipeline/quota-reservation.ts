import type { Ledger } from '../../billing/ledger/ledger.ts'
import { ChargesPending, type Reservation } from '../../billing/ledger/ledger-types.ts'
import { withinTime } from '../../platform/time-limit.ts'
import { billingUnavailable, chargesPending, RelayError } from '../auth/relay-error.ts'
import type { RelayCaller } from '../auth/token-auth.ts'

/* Quota reserved before an upstream call and given back when the call fails: one set of refusals
 * for every relayed route (the relay's endpoints and the proxy route). */

/** A reservation, refund or settlement the database refused (its connection dropped, say). */
export type LedgerFailure = (error: unknown, what: string) => void

/** How long a failed attempt waits for its refund before the next channel is tried (see refundWithin). */
const REFUND_WAIT_MS = 2_000

/** The refusal of a request the token's or the user's remaining quota cannot pay for. */
export function quotaRefusal(reason: 'token' | 'user', caller: RelayCaller, amount: number): RelayError {
  return reason === 'token'
    ? new RelayError(
        403,
        `The remaining quota of token ${caller.token.name} is not enough for this request (needs ${amount})`,
        'insufficient_token_quota',
      )
    : new RelayError(
        403,
        `Your account's remaining quota is not enough for this request (needs ${amount})`,
        'insufficient_user_quota',
      )
}

/**
 * Reserves `amount` for the caller's token and user, or throws what the client is answered: 403
 * when the quota is short, 503 when the token has a charge not yet stored (fail closed) or the
 * database did not take the reservation.
 */
export async function reserveQuota(
  ledger: Ledger,
  caller: RelayCaller,
  amount: number,
  failed: LedgerFailure,
): Promise<Reservation> {
  let reserved: Awaited<ReturnType<Ledger['reserve']>>
  try {
    reserved = await ledger.reserve(caller.token.id, caller.user.id, amount)
  } catch (error) {
    if (error instanceof ChargesPending) throw chargesPending()
    failed(error, 'reserving quota')
    throw billingUnavailable()
  }
  if (!reserved.ok) throw quotaRefusal(reserved.reason, caller, amount)
  return reserved.reservation
}

/**
 * Gives a reservation back. A refund that fails (the database unreachable a moment) must not cost
 * the client its answer: the reservation then stays taken, and the log says so. While the
 * database is unreachable a refund is tried again for up to a minute (write-retries.ts): the
 * caller waits REFUND_WAIT_MS at most, and it goes on in the background.
 */
export async function refundWithin(ledger: Ledger, reservation: Reservation, failed: LedgerFailure) {
  const refunding = ledger.refund(reservation).catch((error: unknown) => {
    failed(error, 'refunding a reservation')
  })
  await withinTime(refunding, REFUND_WAIT_MS)
}
