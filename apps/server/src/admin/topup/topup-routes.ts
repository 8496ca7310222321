import { formatQuota, LogType, RedemptionStatus, Role } from '@one-api/contracts'
import { adminTopUpInputSchema, redeemCodeInputSchema } from '@one-api/contracts/user-admin'
import type { AppContext } from '../../app-context.ts'
import { systemLog } from '../../db/repositories/logs-repository.ts'
import { claimRedemption, findRedemptionByKey } from '../../db/repositories/redemptions-repository.ts'
import { addUserQuota, adjustUserQuota, findUserById } from '../../db/repositories/users-repository.ts'
import { badRequest, notFound } from '../../http/errors.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { parseInput } from '../../http/validate.ts'
import { balanceLogWriter } from '../balance-logs.ts'
import { announceUserChange, assertOutranks, findLiveUser } from '../users/user-access.ts'

/** Credits: an administrator's top-up and a user redeeming a code, each with its log, all or nothing. */
export function topupRoutes(context: AppContext): RouteDefinition[] {
  const { db, options } = context
  const display = (quota: number) =>
    formatQuota(quota, options.boolean('DisplayInCurrencyEnabled'), options.number('QuotaPerUnit'))

  return [
    {
      method: 'POST',
      url: '/api/topup',
      access: Role.Admin,
      handler: async (request) => {
        const input = parseInput(adminTopUpInputSchema, request.body)
        const target = await findLiveUser(context, { id: input.user_id })
        // The same rule as editing a user's quota: an administrator cannot credit themselves or a peer.
        assertOutranks(currentUser(request), target)
        const verb = input.quota > 0 ? 'topped up' : 'deducted'
        const remark = input.remark ? ` (remark: ${input.remark})` : ''
        // The credit and its log commit together: a failed log leaves the balance as it was.
        await db.transaction().execute(async (trx) => {
          if (!(await adjustUserQuota(trx, target.id, input.quota))) {
            throw badRequest('The user does not have enough quota for this deduction')
          }
          await balanceLogWriter(
            context,
            trx,
          )([
            systemLog({
              user_id: target.id,
              username: target.username,
              type: LogType.topUp,
              quota: input.quota,
              content: `Administrator ${verb} ${display(Math.abs(input.quota))}${remark}`,
            }),
          ])
        })
        await announceUserChange(context, target.id)
        const updated = await findUserById(db, target.id)
        return ok({ user_id: target.id, quota: Number(updated?.quota ?? 0) })
      },
    },
    {
      method: 'POST',
      url: '/api/user/topup',
      access: Role.Common,
      handler: async (request) => {
        const user = currentUser(request)
        const { key } = parseInput(redeemCodeInputSchema, request.body)
        const now = Math.floor(Date.now() / 1000)
        // Claim, credit and log in one transaction: the claim is a conditional UPDATE, so of two
        // requests racing for one code exactly one changes the row and only that one credits.
        const quota = await db.transaction().execute(async (trx) => {
          if (!(await claimRedemption(trx, key, now))) return undefined
          const code = await findRedemptionByKey(trx, key)
          const amount = Number(code?.quota ?? 0)
          await addUserQuota(trx, user.id, amount)
          await balanceLogWriter(
            context,
            trx,
          )([
            systemLog({
              user_id: user.id,
              username: user.username,
              type: LogType.topUp,
              quota: amount,
              content: `Redeemed a code for ${display(amount)}`,
            }),
          ])
          return amount
        })
        if (quota === undefined) {
          const code = await findRedemptionByKey(db, key)
          if (!code) throw notFound('Invalid redemption code')
          if (code.status === RedemptionStatus.used)
            throw badRequest('This redemption code has already been used')
          throw badRequest('This redemption code has been disabled')
        }
        await announceUserChange(context, user.id)
        return ok(quota)
      },
    },
  ]
}
