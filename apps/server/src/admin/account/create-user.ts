import { DEFAULT_TOKEN_NAME, formatQuota, LogType, Role, UserStatus } from '@one-api/contracts'
import type { AppContext } from '../../app-context.ts'
import { hashPassword } from '../../auth/password.ts'
import { generateTokenKey, randomString } from '../../auth/random.ts'
import { systemLog } from '../../db/repositories/logs-repository.ts'
import { insertToken, unlimitedToken } from '../../db/repositories/tokens-repository.ts'
import {
  addUserQuota,
  findUserByAffCode,
  findUserByUsername,
  insertUser,
} from '../../db/repositories/users-repository.ts'
import type { NewLog } from '../../db/schema.ts'
import { conflict } from '../../http/errors.ts'
import { balanceLogWriter } from '../balance-logs.ts'

export interface CreateUserInput {
  username: string
  password: string
  displayName?: string
  email?: string
  role?: number
  inviterAffCode?: string
}

/**
 * Creates a user with one-api's side effects, in one transaction: the new-user gift, invite
 * rewards for both sides, and an unlimited `default` token, with the logs of the credits.
 */
export async function createUser(context: AppContext, input: CreateUserInput): Promise<number> {
  const { db, options } = context
  if (await findUserByUsername(db, input.username)) throw conflict('This username is already taken')
  const passwordHash = await hashPassword(input.password)
  const now = Math.floor(Date.now() / 1000)
  const quotaForNewUser = options.number('QuotaForNewUser')
  const logs: NewLog[] = []
  const display = (quota: number) =>
    formatQuota(quota, options.boolean('DisplayInCurrencyEnabled'), options.number('QuotaPerUnit'))

  // Computed before the transaction: SQLite has one connection, so a query outside the
  // transaction while it is open would wait forever.
  const affCode = await uniqueAffCode(context)
  const userId = await db.transaction().execute(async (trx) => {
    const inviter = input.inviterAffCode ? await findUserByAffCode(trx, input.inviterAffCode) : undefined
    const id = await insertUser(trx, {
      username: input.username,
      password: passwordHash,
      display_name: input.displayName || input.username,
      role: input.role ?? Role.Common,
      status: UserStatus.enabled,
      email: input.email ?? '',
      github_id: '',
      wechat_id: '',
      lark_id: '',
      oidc_id: '',
      access_token: null,
      quota: quotaForNewUser,
      used_quota: 0,
      request_count: 0,
      group: 'default',
      aff_code: affCode,
      inviter_id: inviter?.id ?? 0,
      last_login_ip: '',
      last_login_time: 0,
      created_time: now,
    })
    if (quotaForNewUser > 0) {
      logs.push(
        systemLog({
          user_id: id,
          username: input.username,
          type: LogType.system,
          content: `New user registration gift: ${display(quotaForNewUser)}`,
        }),
      )
    }
    if (inviter) {
      const inviteeReward = options.number('QuotaForInvitee')
      const inviterReward = options.number('QuotaForInviter')
      if (inviteeReward > 0) {
        await addUserQuota(trx, id, inviteeReward)
        logs.push(
          systemLog({
            user_id: id,
            username: input.username,
            type: LogType.system,
            content: `Invitation bonus: ${display(inviteeReward)}`,
          }),
        )
      }
      if (inviterReward > 0) {
        await addUserQuota(trx, inviter.id, inviterReward)
        logs.push(
          systemLog({
            user_id: inviter.id,
            username: inviter.username,
            type: LogType.system,
            content: `Reward for inviting a user: ${display(inviterReward)}`,
          }),
        )
      }
    }
    await insertToken(trx, unlimitedToken(id, DEFAULT_TOKEN_NAME, generateTokenKey()))
    await balanceLogWriter(context, trx)(logs)
    return id
  })
  return userId
}

/** 4 characters as one-api, growing when the short space gets crowded. */
export async function uniqueAffCode(context: AppContext): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const code = randomString(attempt < 10 ? 4 : 8)
    if (!(await findUserByAffCode(context.db, code))) return code
  }
  return randomString(16)
}
