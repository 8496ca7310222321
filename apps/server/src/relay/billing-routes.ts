import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../app-context.ts'
import { toBoolean } from '../db/schema.ts'
import { sendRelayError } from './auth/relay-error.ts'
import { authenticateRelay } from './auth/token-auth.ts'
import type { RelayServices } from './relay-services.ts'

const UNLIMITED_AMOUNT = 100_000_000

/**
 * OpenAI's old billing endpoints, which chat clients call to show a balance.
 * Figures are read fresh from the database (quota changes with every request).
 */
export function registerBillingRoutes(
  app: FastifyInstance,
  context: AppContext,
  services: RelayServices,
): void {
  const { options, db } = context
  const read = async (authorization: string | undefined, ip: string) => {
    const caller = await authenticateRelay(services.cache, authorization, ip)
    const token = await db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota', 'unlimited_quota', 'expired_time'])
      .where('id', '=', caller.token.id)
      .executeTakeFirstOrThrow()
    const user = await db
      .selectFrom('users')
      .select(['quota', 'used_quota'])
      .where('id', '=', caller.user.id)
      .executeTakeFirstOrThrow()
    return { token, user }
  }
  const inUnits = (quota: number) =>
    options.boolean('DisplayInCurrencyEnabled') ? quota / options.number('QuotaPerUnit') : quota

  const subscription = async (
    request: { headers: { authorization?: string }; ip: string; id: string },
    reply: never,
  ) => {
    try {
      const { token, user } = await read(request.headers.authorization, request.ip)
      let amount: number
      if (options.boolean('DisplayTokenStatEnabled')) {
        amount = toBoolean(token.unlimited_quota)
          ? UNLIMITED_AMOUNT
          : inUnits(Number(token.remain_quota) + Number(token.used_quota))
      } else {
        amount = inUnits(Number(user.quota) + Number(user.used_quota))
      }
      return {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: amount,
        hard_limit_usd: amount,
        system_hard_limit_usd: amount,
        access_until: Number(token.expired_time) === -1 ? 0 : Number(token.expired_time),
      }
    } catch (error) {
      return sendRelayError(reply, error, request.id)
    }
  }
  const usage = async (
    request: { headers: { authorization?: string }; ip: string; id: string },
    reply: never,
  ) => {
    try {
      const { token, user } = await read(request.headers.authorization, request.ip)
      const used = options.boolean('DisplayTokenStatEnabled')
        ? Number(token.used_quota)
        : Number(user.used_quota)
      // Hundredths of the subscription's unit, since clients show hard_limit_usd - total_usage / 100:
      // US cents, or with DisplayInCurrencyEnabled off hundredths of a quota unit (cents against a
      // limit in quota units made that balance nonsense). One division of whole numbers, so 8 units
      // read 0.0016, not 0.0015999999999999999.
      const total = options.boolean('DisplayInCurrencyEnabled')
        ? (used * 100) / options.number('QuotaPerUnit')
        : used * 100
      return { object: 'list', total_usage: total }
    } catch (error) {
      return sendRelayError(reply, error, request.id)
    }
  }
  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/dashboard/billing/subscription`, subscription as never)
    app.get(`${prefix}/dashboard/billing/usage`, usage as never)
  }
}
